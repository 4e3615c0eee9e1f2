# The CMake project of the consumer of an installed oc SDK (installed_app.c), copied as
# CMakeLists.txt by tests/emitter/install-sdk.sh and install-deb.sh.
cmake_minimum_required(VERSION 3.16)
project(oc_consumer LANGUAGES C)
find_package(oc 0.5 CONFIG REQUIRED)
add_executable(app_shared app.c)
target_link_libraries(app_shared PRIVATE oc::oc)
add_executable(app_static app.c)
target_link_libraries(app_static PRIVATE oc::oc_static)
install(TARGETS app_shared app_static)
