# Extra emitter tests: the generated OpenCode SDK target `oc` for the in-memory tests, and the
# full contract generated and compiled with gcc and clang under the strict flags.
if(TARGET emitter_test_opencode)
  if(TARGET oc)
    target_link_libraries(emitter_test_opencode PRIVATE oc)
  else()
    set_tests_properties(emitter/test_opencode PROPERTIES DISABLED TRUE)
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
  set_tests_properties(emitter/full_contract_compiles PROPERTIES LABELS emitter TIMEOUT 900)
endif()
