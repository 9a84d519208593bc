# Installation: headers under include/strata/<folder>/, the libraries, the
# `strata` command, a CMake package (find_package(Strata CONFIG)) with
# namespaced targets, a version file, and a pkg-config file.
#
#   Strata::strata  the language: core, interpreter, engine registry (and the
#                   C++ front end, fusion, and the engines the registry offers (tbb)
#   Strata::core, Strata::interp, Strata::oracle, ...   the individual libraries
#
# Engines add themselves as Strata::<engine> through strata_install_engine().
include(CMakePackageConfigHelpers)

set(STRATA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Strata)

# Libraries that make up Strata::strata, in link order; optional ones only if built.
set(STRATA_LANGUAGE_LIBS)
foreach(lib strata_frontend strata_oracle strata_tbb strata_fusion strata_interp strata_core)
  if(TARGET ${lib})
    list(APPEND STRATA_LANGUAGE_LIBS ${lib})
    string(REPLACE "strata_" "" short ${lib})
    set_target_properties(${lib} PROPERTIES EXPORT_NAME ${short})
  endif()
endforeach()

add_library(strata_language INTERFACE)
target_link_libraries(strata_language INTERFACE ${STRATA_LANGUAGE_LIBS})
set_target_properties(strata_language PROPERTIES EXPORT_NAME strata)
add_library(Strata::strata ALIAS strata_language)

install(TARGETS strata_language ${STRATA_LANGUAGE_LIBS} EXPORT StrataTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS strata RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

foreach(dir core interpreter oracle fusion frontend tbb)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/${dir})
    install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata/${dir}
            FILES_MATCHING PATTERN "*.h")
  endif()
endforeach()

install(EXPORT StrataTargets NAMESPACE Strata:: DESTINATION ${STRATA_CMAKE_DIR})
configure_package_config_file(cmake/StrataConfig.cmake.in ${PROJECT_BINARY_DIR}/StrataConfig.cmake
                              INSTALL_DESTINATION ${STRATA_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/StrataConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/StrataConfig.cmake ${PROJECT_BINARY_DIR}/StrataConfigVersion.cmake
        DESTINATION ${STRATA_CMAKE_DIR})

# pkg-config: the same libraries, for builds without CMake.
set(STRATA_PC_LIBS "")
foreach(lib ${STRATA_LANGUAGE_LIBS})
  string(APPEND STRATA_PC_LIBS " -l${lib}")
endforeach()
# The prefix is found relative to the .pc file, so an installed tree can move.
file(RELATIVE_PATH STRATA_PC_PREFIX_FROM_PCDIR ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
string(APPEND STRATA_PC_LIBS " -ltbb")
configure_file(cmake/strata.pc.in ${PROJECT_BINARY_DIR}/strata.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/strata.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
