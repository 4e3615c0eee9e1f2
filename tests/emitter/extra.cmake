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

# An SDK generated at build time from a contract, as a static library, and a Check program
# over it registered as emitter/NAME.
function(sdkc_test_sdk name contract prefix main)
  set(dir ${CMAKE_CURRENT_BINARY_DIR}/${name}-sdk)
  add_custom_command(
    OUTPUT ${dir}/src/types.c ${dir}/src/ops.c
    COMMAND $<TARGET_FILE:sdkc-cli> generate ${contract} --lang c --prefix ${prefix} --quiet
            --out ${dir}
    DEPENDS sdkc-cli ${contract}
    COMMENT "sdkc generate ${contract}")
  add_library(emitter_${name}_sdk STATIC ${dir}/src/types.c ${dir}/src/ops.c)
  target_include_directories(emitter_${name}_sdk PUBLIC ${dir}/include PRIVATE ${dir}/src)
  target_link_libraries(emitter_${name}_sdk PUBLIC sdkrt)
  sdkc_warnings(emitter_${name}_sdk)
  add_executable(emitter_${name} ${main})
  target_link_libraries(emitter_${name} PRIVATE emitter_${name}_sdk PkgConfig::CHECK
                        Threads::Threads)
  add_test(NAME emitter/${name} COMMAND emitter_${name})
  set_tests_properties(emitter/${name} PROPERTIES LABELS emitter TIMEOUT 120)
endfunction()

# The complete program of docs/c-sdk.md ("The loop"), cut from the document at build time,
# compiles against the generated OpenCode SDK and runs on the built-in loop.
if(TARGET oc)
  set(DOC_LOOP ${CMAKE_CURRENT_BINARY_DIR}/doc_loop.c)
  add_custom_command(
    OUTPUT ${DOC_LOOP}
    COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/doc-snippet.sh ${PROJECT_SOURCE_DIR}/docs/c-sdk.md
            "The loop" ${DOC_LOOP}
    DEPENDS ${PROJECT_SOURCE_DIR}/docs/c-sdk.md ${CMAKE_CURRENT_SOURCE_DIR}/doc-snippet.sh
    COMMENT "docs/c-sdk.md: the loop's program")
  add_executable(emitter_doc_loop ${DOC_LOOP})
  target_link_libraries(emitter_doc_loop PRIVATE oc)
  add_test(NAME emitter/doc_loop COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/doc-loop.sh
                                         $<TARGET_FILE:emitter_doc_loop>)
  set_tests_properties(emitter/doc_loop PROPERTIES LABELS "emitter;script" TIMEOUT 60)
endif()

if(TARGET sdkc-cli AND TARGET sdkrt)
  set(HERE ${CMAKE_CURRENT_SOURCE_DIR})
  # Values of every shape through encode and decode.
  sdkc_test_sdk(edge ${HERE}/data/edge.yaml ed ${HERE}/edge/edge_main.c)
  # Success values that are not structs.
  sdkc_test_sdk(results ${HERE}/data/results.yaml rs ${HERE}/results/results_main.c)
  # default and NXX errors.
  sdkc_test_sdk(errors ${PROJECT_SOURCE_DIR}/tests/compiler/data/compile/real/responses.yaml er
                ${HERE}/errors/errors_main.c)
  # Every pagination style: _iter and the page calls over the in-memory transport.
  sdkc_test_sdk(pages ${PROJECT_SOURCE_DIR}/tests/compiler/data/pages/styles.yaml pg
                ${HERE}/pages/pages_main.c)
  # Several declared successes, a stream variant, credentials without security schemes.
  sdkc_test_sdk(successes ${HERE}/data/successes.yaml sc ${HERE}/successes/successes_main.c)
  # The async forms on the built-in loop against the test server (tests/runtime/support).
  if(TARGET test_support_runtime)
    sdkc_test_sdk(async ${HERE}/data/async.yaml as ${HERE}/async/async_main.c)
    target_link_libraries(emitter_async PRIVATE test_support_runtime)
  endif()
  # Const input twins: the test must build with -Wcast-qual -Wwrite-strings as errors.
  sdkc_test_sdk(inputs ${HERE}/data/inputs.yaml ip ${HERE}/inputs/inputs_main.c)
  target_compile_options(emitter_inputs PRIVATE -Wall -Wextra -Wcast-qual -Wwrite-strings -Werror)
  # The example contract (every construct the compiler recognizes) compiles too.
  add_test(NAME emitter/example_contract_compiles
           COMMAND ${CMAKE_COMMAND} -E env "SDKC=$<TARGET_FILE:sdkc-cli>"
                   "SDKRT_INCLUDE=${SDKRT_INCLUDE}" "JANSSON_CFLAGS=${JANSSON_CFLAGS}"
                   bash ${CMAKE_CURRENT_SOURCE_DIR}/full_contract.sh
                   ${PROJECT_SOURCE_DIR}/spec/examples/example.yaml
                   ${CMAKE_CURRENT_BINARY_DIR}/example-contract)
  set_tests_properties(emitter/example_contract_compiles PROPERTIES LABELS "emitter;script" TIMEOUT 300)
  # An inline object that contains itself (sdkc generate overflowed its stack on such contracts).
  add_test(NAME emitter/recursive_inline_compiles
           COMMAND ${CMAKE_COMMAND} -E env "SDKC=$<TARGET_FILE:sdkc-cli>"
                   "SDKRT_INCLUDE=${SDKRT_INCLUDE}" "JANSSON_CFLAGS=${JANSSON_CFLAGS}"
                   bash ${CMAKE_CURRENT_SOURCE_DIR}/full_contract.sh
                   ${CMAKE_CURRENT_SOURCE_DIR}/data/recursive-inline.yaml
                   ${CMAKE_CURRENT_BINARY_DIR}/recursive-inline)
  set_tests_properties(emitter/recursive_inline_compiles PROPERTIES LABELS "emitter;script"
                       TIMEOUT 120)
  # A stream of raw JSON items: _next's item is a pointer to const json_t * (did not compile).
  add_test(NAME emitter/stream_json_compiles
           COMMAND ${CMAKE_COMMAND} -E env "SDKC=$<TARGET_FILE:sdkc-cli>"
                   "SDKRT_INCLUDE=${SDKRT_INCLUDE}" "JANSSON_CFLAGS=${JANSSON_CFLAGS}"
                   bash ${CMAKE_CURRENT_SOURCE_DIR}/full_contract.sh
                   ${CMAKE_CURRENT_SOURCE_DIR}/data/stream-json.yaml
                   ${CMAKE_CURRENT_BINARY_DIR}/stream-json)
  set_tests_properties(emitter/stream_json_compiles PROPERTIES LABELS "emitter;script"
                       TIMEOUT 120)
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

# The Debian packages (cpack -G DEB) of libsdkrt and of generated/opencode, unpacked into a scratch
# root: metadata, layout, and consumers with pkg-config and find_package. Needs dpkg (Debian).
find_program(SDKC_DPKG_DEB dpkg-deb)
mark_as_advanced(SDKC_DPKG_DEB)
if(TARGET sdkrt_shared AND SDKC_DPKG_DEB)
  add_test(NAME emitter/install_deb
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install-deb.sh ${PROJECT_SOURCE_DIR}
                   ${CMAKE_C_COMPILER})
  set_tests_properties(emitter/install_deb PROPERTIES LABELS "emitter;script" TIMEOUT 300)
endif()
# The package names and descriptions a generated SDK gives CPack (a prefix with '_' ending in a
# digit, a title with CMake's special characters); configured only, in seconds.
if(TARGET sdkrt_shared AND TARGET sdkc-cli)
  add_test(NAME emitter/deb_names
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/deb-names.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${PROJECT_BINARY_DIR})
  set_tests_properties(emitter/deb_names PROPERTIES LABELS "emitter;script" TIMEOUT 120)
endif()

# The TypeScript SDK (--lang ts): the OpenCode and inputs.yaml SDKs and the tests in ts/ compiled
# with the oldest and the newest pinned tsc (strict, exactOptionalPropertyTypes,
# noUncheckedIndexedAccess), then run with node over the in-memory transport (skipped without node).
if(TARGET sdkc-cli AND TARGET sdkc_emit_ts)
  add_test(NAME emitter/ts_sdk
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ts/run.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/ts_sdk)
  set_tests_properties(emitter/ts_sdk PROPERTIES LABELS "emitter;script" TIMEOUT 600
                       SKIP_RETURN_CODE 77 COST 27)
  # The OpenCode package packed with npm (prepack builds dist/), installed from its tarball into a
  # scratch project, and imported by name from a script run against the in-memory transport.
  add_test(NAME emitter/ts_package
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ts/package.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/ts_package)
  set_tests_properties(emitter/ts_package PROPERTIES LABELS "emitter;script" TIMEOUT 600
                       SKIP_RETURN_CODE 77 COST 27)
endif()

# Clients grouped as the API is: GitHub by tag, Stripe by path, OpenCode's whole contract with v2
# under client.v2 (and oc_v2_* in C); the calls run under node when it is there (77: skipped).
if(TARGET sdkc-cli AND TARGET sdkc_emit_ts)
  add_test(NAME emitter/ts_groups
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ts-groups.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/ts_groups)
  set_tests_properties(emitter/ts_groups PROPERTIES LABELS "emitter;script" TIMEOUT 300
                       SKIP_RETURN_CODE 77)
endif()
