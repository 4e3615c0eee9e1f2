# Conformance tests link the conform library (the generic CMakeLists links sdkc and sdkrt only).
if(TARGET sdkc_conform)
  foreach(src ${TEST_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    if(TARGET conformance_${name})
      target_link_libraries(conformance_${name} PRIVATE sdkc_conform)
    endif()
  endforeach()
endif()

# The pinned server is installed once, under a lock, before every test that starts it (fixture
# opencode_server): on a fresh machine they would otherwise all start the first npm install.
add_test(NAME conformance/opencode_install
         COMMAND bash ${PROJECT_SOURCE_DIR}/scripts/opencode-server.sh install)
set_tests_properties(conformance/opencode_install PROPERTIES LABELS "conformance;script"
                     TIMEOUT 900 FIXTURES_SETUP opencode_server)
add_test(NAME conformance/install_lock
         COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/install-lock.sh ${PROJECT_SOURCE_DIR})
set_tests_properties(conformance/install_lock PROPERTIES LABELS "conformance;script" TIMEOUT 120)

# The real server: opencode-ai@1.18.33 against its own contract, compared with the reviewed list
# of known deviations. Needs npm (first run installs the server into ~/.cache/sdkc) and fails
# when it is missing.
if(TARGET sdkc-cli)
  add_test(NAME conformance/cli_exit
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/cli-exit.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR})
  set_tests_properties(conformance/cli_exit PROPERTIES LABELS "conformance;script" TIMEOUT 120)
  add_test(NAME conformance/opencode
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/opencode-conform.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR})
  set_tests_properties(conformance/opencode PROPERTIES LABELS "conformance;script" TIMEOUT 900
                       FIXTURES_REQUIRED opencode_server COST 15)
  # the same with -j 4: operations wait for the ids they need, so it finds what -j 1 finds
  add_test(NAME conformance/opencode_j4
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/opencode-conform.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR} -j 4)
  set_tests_properties(conformance/opencode_j4 PROPERTIES LABELS "conformance;script" TIMEOUT 900
                       FIXTURES_REQUIRED opencode_server COST 15)
endif()

# --- sdkconf: the generated OpenCode C SDK against the real server (test_sdk_opencode.c) ---------
# The test binary starts and stops the pinned server itself (scripts/opencode-server.sh), so CTest
# and `ctest -T memcheck` run the C code directly. It needs the generated SDK, target `oc`
# (generated/opencode; built here when SDKC_BUILD_GENERATED is off).
if(TARGET conformance_test_sdk_opencode)
  if(NOT TARGET oc)
    add_subdirectory(${PROJECT_SOURCE_DIR}/generated/opencode ${CMAKE_CURRENT_BINARY_DIR}/oc)
  endif()
  target_link_libraries(conformance_test_sdk_opencode PRIVATE oc)
  set_tests_properties(conformance/test_sdk_opencode PROPERTIES TIMEOUT 300
                       ENVIRONMENT "CK_DEFAULT_TIMEOUT=120" FIXTURES_REQUIRED opencode_server
                       COST 30)
endif()
# --- end sdkconf ----------------------------------------------------------------------------------

# --- Python-driven servers: faults/faults.py (shop.yaml) plants one fault per check, and
# faults/pages.py (pages.yaml) serves one list per pagination style. A test per fault: the run
# must report deviations of that check and of no other (`conformant`: none; `max-time`, `sigint`:
# stopped early, the report still written). A test per style: a faithful server (the walk
# passes), one that repeats an item across pages and one that drops one (rules repeat and loss).
# Python drives sdkc: script tests (the valgrind stage would wrap python, not sdkc).
find_program(SDKC_PYTHON3 python3)
function(sdkc_conform_py_tests script prefix)
  foreach(what ${ARGN})
    add_test(NAME conformance/${prefix}_${what}
             COMMAND ${SDKC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/faults/${script}
                     $<TARGET_FILE:sdkc-cli> ${what} ${CMAKE_CURRENT_BINARY_DIR}/${prefix})
    set_tests_properties(conformance/${prefix}_${what} PROPERTIES LABELS "conformance;script"
                                                                  TIMEOUT 60)
  endforeach()
endfunction()
if(TARGET sdkc-cli AND SDKC_PYTHON3)
  sdkc_conform_py_tests(faults.py fault conformant not_a_server_error status_code_conformance
                        content_type_conformance response_headers_conformance
                        response_schema_conformance negative_data_rejection ignored_auth
                        use_after_free ensure_resource_availability missing_resource timeout
                        second_success_schema max-time sigint sigint-hang malformed-hang refused)
  # traps.py (traps.yaml): nothing false (issue 26): `default` is no 404, an empty 204, a next page
  # on another origin, a page without its optional items, a minLength 0 path parameter; the merge
  # key keeps rules apart; file arguments are checked before the first request; `order`: -j 4
  # finds what -j 1 finds (an operation waits for the one that makes its id).
  sdkc_conform_py_tests(traps.py traps quiet merge files order tls)
  # phases.py (phases.yaml): the generated requests of issue 26 with default flags. `fixed`: a
  # strict server, no deviation; `planted`: one deviation per phase and check (examples,
  # coverage, negative, missing_required_header, unsupported_method, a positive probe reduced,
  # coverage's other format values and pattern matches, a response breaking uniqueItems), each
  # found; `planted-j4`: the same with -j 4; `seed`: --seed repeats a run's requests.
  sdkc_conform_py_tests(phases.py phases fixed planted planted-j4 seed)
  # progress.py: the progress line on a terminal (a pty from util-linux `script`), none in a pipe
  add_test(NAME conformance/progress
           COMMAND ${SDKC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/faults/progress.py
                   $<TARGET_FILE:sdkc-cli> ${CMAKE_CURRENT_BINARY_DIR}/progress)
  set_tests_properties(conformance/progress PROPERTIES LABELS "conformance;script" TIMEOUT 60)
  sdkc_conform_py_tests(pages.py page cursor-object cursor-token cursor-item next-url link-header
                        page-number offset)
  # facts.yaml: the same report from a contract and from its IR JSON (headers, links, allOf
  # required names and nullables are facts of the IR)
  add_test(NAME conformance/facts_same_report
           COMMAND ${SDKC_PYTHON3} ${CMAKE_CURRENT_SOURCE_DIR}/faults/facts.py
                   $<TARGET_FILE:sdkc-cli> ${CMAKE_CURRENT_BINARY_DIR}/facts)
  set_tests_properties(conformance/facts_same_report PROPERTIES LABELS "conformance;script"
                                                               TIMEOUT 60)
endif()

# --- prism corpus: sdkc conform against Prism mocks of tests/mock/corpus.txt ----------------------
# Every deviation must be listed with its reason in prism-expected.json (prism-corpus.sh). Needs
# npm once (Prism and the corpus are installed into ~/.cache/sdkc).
if(TARGET sdkc-cli)
  add_test(NAME conformance/prism_corpus
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/prism-corpus.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR} -j 4)
  set_tests_properties(conformance/prism_corpus PROPERTIES LABELS "conformance;script" TIMEOUT 600
                       COST 80)
endif()

# The generated TypeScript SDK against the real server (ts/live.test.ts: sessions, every page of
# sessions and messages, prompt admission, events resumed with `after`, tagged 404, 401); skipped
# when node is absent.
if(TARGET sdkc-cli AND TARGET sdkc_emit_ts)
  add_test(NAME conformance/ts_sdk_live
           COMMAND bash ${CMAKE_CURRENT_SOURCE_DIR}/ts-live.sh $<TARGET_FILE:sdkc-cli>
                   ${PROJECT_SOURCE_DIR} ${CMAKE_CURRENT_BINARY_DIR}/ts_sdk_live)
  set_tests_properties(conformance/ts_sdk_live PROPERTIES LABELS "conformance;script" TIMEOUT 300
                       SKIP_RETURN_CODE 77 FIXTURES_REQUIRED opencode_server COST 85)
endif()
