# Read by cpack for each generator (CPACK_PROJECT_CONFIG_FILE, set in deb.cmake).
if(CPACK_GENERATOR STREQUAL "DEB")
  # A Debian package installs to /usr, so the build must have been configured for /usr: its lib
  # dir (multiarch there) and its .pc files follow the prefix.
  if(NOT CPACK_SDKC_INSTALL_PREFIX STREQUAL "/usr")
    message(FATAL_ERROR "cpack -G DEB: this build is configured with CMAKE_INSTALL_PREFIX="
                        "${CPACK_SDKC_INSTALL_PREFIX}; Debian packages install to /usr: "
                        "configure with -DCMAKE_INSTALL_PREFIX=/usr and build again")
  endif()
  # Each package has its own summary (the first line of CPACK_DEBIAN_<COMPONENT>_DESCRIPTION);
  # CPack would put the project's summary in front of it.
  unset(CPACK_PACKAGE_DESCRIPTION_SUMMARY)
endif()
