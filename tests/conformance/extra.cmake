# Conformance tests link the conform library (the generic CMakeLists links sdkc and sdkrt only).
if(TARGET sdkc_conform)
  foreach(src ${TEST_SOURCES})
    get_filename_component(name ${src} NAME_WE)
    if(TARGET conformance_${name})
      target_link_libraries(conformance_${name} PRIVATE sdkc_conform)
    endif()
  endforeach()
endif()
