# Extra emitter tests: the generated OpenCode SDK target `oc` for the in-memory tests, and the
# full contract generated and compiled with gcc and clang under the strict flags.
if(TARGET emitter_test_opencode)
  if(TARGET oc)
    target_link_libraries(emitter_test_opencode PRIVATE oc)
  else()
    # SDKC_BUILD_GENERATED=OFF: compile the checked-in SDK into the test itself.
    set(OC_DIR ${PROJECT_SOURCE_DIR}/generated/opencode)
    target_sources(emitter_test_opencode PRIVATE ${OC_DIR}/src/types.c ${OC_DIR}/src/ops.c)
    target_include_directories(emitter_test_opencode PRIVATE ${OC_DIR}/include ${OC_DIR}/src)
  endif()
endif()
if(TARGET sdkc-cli AND TARGET sdkrt)
  get_target_property(SDKRT_INCLUDE sdkrt INTERFACE_INCLUDE_DIRECTORIES)
  add_test(NAME emitter/full_contract_compiles
           COMMAND ${CMAKE_COMMAND} -E env "SDKC=$<TARGET_FILE:sdkc-cli>"
                   "SDKRT_INCLUDE=${SDKRT_INCLUDE}" "JANSSON_CFLAGS=${JANSSON_CFLAGS}"
                   bash ${CMAKE_CURRENT_SOURCE_DIR}/full_contract.sh
                   ${PROJECT_SOURCE_DIR}/spec/opencode/openapi.json
                   ${CMAKE_CURRENT_BINARY_DIR}/full-contract)
  set_tests_properties(emitter/full_contract_compiles PROPERTIES LABELS "emitter;script" TIMEOUT 900)
endif()

# The SDK of tests/emitter/data/edge.yaml, generated at build time, and a value test over it.
if(TARGET sdkc-cli AND TARGET sdkrt)
  set(EDGE_DIR ${CMAKE_CURRENT_BINARY_DIR}/edge-sdk)
  add_custom_command(
    OUTPUT ${EDGE_DIR}/src/types.c ${EDGE_DIR}/src/ops.c
    COMMAND $<TARGET_FILE:sdkc-cli> generate ${CMAKE_CURRENT_SOURCE_DIR}/data/edge.yaml --lang c
            --prefix ed --out ${EDGE_DIR}
    DEPENDS sdkc-cli ${CMAKE_CURRENT_SOURCE_DIR}/data/edge.yaml
    COMMENT "sdkc generate tests/emitter/data/edge.yaml")
  add_library(emitter_edge_sdk STATIC ${EDGE_DIR}/src/types.c ${EDGE_DIR}/src/ops.c)
  target_include_directories(emitter_edge_sdk PUBLIC ${EDGE_DIR}/include PRIVATE ${EDGE_DIR}/src)
  target_link_libraries(emitter_edge_sdk PUBLIC sdkrt)
  sdkc_warnings(emitter_edge_sdk)
  add_executable(emitter_edge ${CMAKE_CURRENT_SOURCE_DIR}/edge/edge_main.c)
  target_link_libraries(emitter_edge PRIVATE emitter_edge_sdk PkgConfig::CHECK Threads::Threads)
  add_test(NAME emitter/edge COMMAND emitter_edge)
  set_tests_properties(emitter/edge PROPERTIES LABELS emitter TIMEOUT 120)
  # The SDK of tests/emitter/data/results.yaml: success values that are not structs.
  set(RESULTS_DIR ${CMAKE_CURRENT_BINARY_DIR}/results-sdk)
  add_custom_command(
    OUTPUT ${RESULTS_DIR}/src/types.c ${RESULTS_DIR}/src/ops.c
    COMMAND $<TARGET_FILE:sdkc-cli> generate ${CMAKE_CURRENT_SOURCE_DIR}/data/results.yaml
            --lang c --prefix rs --quiet --out ${RESULTS_DIR}
    DEPENDS sdkc-cli ${CMAKE_CURRENT_SOURCE_DIR}/data/results.yaml
    COMMENT "sdkc generate tests/emitter/data/results.yaml")
  add_library(emitter_results_sdk STATIC ${RESULTS_DIR}/src/types.c ${RESULTS_DIR}/src/ops.c)
  target_include_directories(emitter_results_sdk PUBLIC ${RESULTS_DIR}/include
                             PRIVATE ${RESULTS_DIR}/src)
  target_link_libraries(emitter_results_sdk PUBLIC sdkrt)
  sdkc_warnings(emitter_results_sdk)
  add_executable(emitter_results ${CMAKE_CURRENT_SOURCE_DIR}/results/results_main.c)
  target_link_libraries(emitter_results PRIVATE emitter_results_sdk PkgConfig::CHECK
                        Threads::Threads)
  add_test(NAME emitter/results COMMAND emitter_results)
  set_tests_properties(emitter/results PROPERTIES LABELS emitter TIMEOUT 120)
  # The SDK of tests/compiler/data/compile/real/responses.yaml: default and NXX errors.
  set(ERRORS_DIR ${CMAKE_CURRENT_BINARY_DIR}/errors-sdk)
  set(ERRORS_YAML ${PROJECT_SOURCE_DIR}/tests/compiler/data/compile/real/responses.yaml)
  add_custom_command(
    OUTPUT ${ERRORS_DIR}/src/types.c ${ERRORS_DIR}/src/ops.c
    COMMAND $<TARGET_FILE:sdkc-cli> generate ${ERRORS_YAML} --lang c --prefix er --quiet
            --out ${ERRORS_DIR}
    DEPENDS sdkc-cli ${ERRORS_YAML}
    COMMENT "sdkc generate tests/compiler/data/compile/real/responses.yaml")
  add_library(emitter_errors_sdk STATIC ${ERRORS_DIR}/src/types.c ${ERRORS_DIR}/src/ops.c)
  target_include_directories(emitter_errors_sdk PUBLIC ${ERRORS_DIR}/include
                             PRIVATE ${ERRORS_DIR}/src)
  target_link_libraries(emitter_errors_sdk PUBLIC sdkrt)
  sdkc_warnings(emitter_errors_sdk)
  add_executable(emitter_errors ${CMAKE_CURRENT_SOURCE_DIR}/errors/errors_main.c)
  target_link_libraries(emitter_errors PRIVATE emitter_errors_sdk PkgConfig::CHECK Threads::Threads)
  add_test(NAME emitter/errors COMMAND emitter_errors)
  set_tests_properties(emitter/errors PROPERTIES LABELS emitter TIMEOUT 120)
  # The example contract (every construct the compiler recognizes) compiles too.
  add_test(NAME emitter/example_contract_compiles
           COMMAND ${CMAKE_COMMAND} -E env "SDKC=$<TARGET_FILE:sdkc-cli>"
                   "SDKRT_INCLUDE=${SDKRT_INCLUDE}" "JANSSON_CFLAGS=${JANSSON_CFLAGS}"
                   bash ${CMAKE_CURRENT_SOURCE_DIR}/full_contract.sh
                   ${PROJECT_SOURCE_DIR}/spec/examples/example.yaml
                   ${CMAKE_CURRENT_BINARY_DIR}/example-contract)
  set_tests_properties(emitter/example_contract_compiles PROPERTIES LABELS "emitter;script" TIMEOUT 300)
endif()

# Every C identifier unique in its scope, with readable names for clashes (data/names.yaml).
if(TARGET sdkc-cli)
  add_test(NAME emitter/names
           COMMAND ${CMAKE_COMMAND} -E env "JANSSON_CFLAGS=${JANSSON_CFLAGS}"
                   bash ${CMAKE_CURRENT_SOURCE_DIR}/names.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/names)
  set_tests_properties(emitter/names PROPERTIES LABELS "emitter;script" TIMEOUT 120)
endif()

# The generated SDK installed next to an installed libsdkrt, and consumed with pkg-config and
# find_package (shared and static), examples included. Not in sanitizer builds: the consumers
# would link an instrumented libsdkrt without the sanitizer runtime.
if(TARGET sdkrt_shared AND NOT SDKC_SANITIZE)
  add_test(NAME emitter/install_sdk
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install-sdk.sh ${PROJECT_BINARY_DIR}
                   ${PROJECT_SOURCE_DIR} ${CMAKE_C_COMPILER})
  set_tests_properties(emitter/install_sdk PROPERTIES LABELS "emitter;script" TIMEOUT 300)
endif()
