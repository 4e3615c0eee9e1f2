# Extra compiler tests (included by tests/compiler/CMakeLists.txt).
# The CLI tests run the built binary, so it must be built first.
if(TARGET compiler_test_cli AND TARGET sdkc-cli)
  add_dependencies(compiler_test_cli sdkc-cli)
endif()
# The golden IR comparisons alone: `ctest -R compiler/golden`; to regenerate the goldens after
# an intended change: `SDKC_UPDATE_GOLDEN=1 ctest -R compiler/golden`, then review the diff.
if(TARGET compiler_test_ir_json)
  add_test(NAME compiler/golden COMMAND compiler_test_ir_json)
  set_tests_properties(compiler/golden PROPERTIES LABELS compiler TIMEOUT 600
                       ENVIRONMENT "CK_RUN_CASE=golden;CK_DEFAULT_TIMEOUT=60")
endif()
# The link-level rules of libsdkc (scripts/check-symbols.sh): every global symbol prefixed, no
# object calling into the driver; and the check itself fails on planted violations.
if(TARGET sdkc)
  add_test(NAME compiler/symbols
           COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check-symbols.sh $<TARGET_FILE:sdkc>)
  set_tests_properties(compiler/symbols PROPERTIES LABELS "compiler;script" TIMEOUT 60)
endif()
add_test(NAME compiler/symbols_check_fails
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check_symbols_test.sh ${PROJECT_SOURCE_DIR}
                 ${CMAKE_C_COMPILER})
set_tests_properties(compiler/symbols_check_fails PROPERTIES LABELS "compiler;script" TIMEOUT 60)
# The include rule of libsdkc (scripts/check-layers.sh): each file includes its layer and below;
# and the check fails on planted violations.
add_test(NAME compiler/layers COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/check-layers.sh
                                       ${PROJECT_SOURCE_DIR}/ir/src)
set_tests_properties(compiler/layers PROPERTIES LABELS "compiler;script" TIMEOUT 60)
add_test(NAME compiler/layers_check_fails
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/check_layers_test.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(compiler/layers_check_fails PROPERTIES LABELS "compiler;script" TIMEOUT 60)
