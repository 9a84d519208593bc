# Installation: headers under include/strata/<folder>/, the libraries, the
# `strata` command, a CMake package (find_package(Strata CONFIG)) with
# namespaced targets, a version file, and a pkg-config file.
#
#   Strata::strata    the language: core, C++ front end, fusion, interpreter
#   Strata::registry  engines by name (all_engines(), find_engine()): links every
#                     engine this build has
#   Strata::tbb, Strata::jit, Strata::cuda, Strata::mpi   one target per engine built, so a
#                     user who wants only the interpreter pulls in no TBB or LLVM
#   Strata::oracle    the differential harness
include(CMakePackageConfigHelpers)

set(STRATA_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/Strata)

set(STRATA_LANGUAGE_LIBS strata_frontend strata_fusion strata_interp strata_core)
set(STRATA_INSTALLED_LIBS ${STRATA_LANGUAGE_LIBS})
# in link order: users before what they use
foreach(lib strata_oracle strata_registry strata_mpi strata_tbb strata_jit strata_parallel strata_cuda strata_cache)
  if(TARGET ${lib})
    list(APPEND STRATA_INSTALLED_LIBS ${lib})
  endif()
endforeach()
foreach(lib ${STRATA_INSTALLED_LIBS})
  string(REPLACE "strata_" "" short ${lib})
  set_target_properties(${lib} PROPERTIES EXPORT_NAME ${short})
endforeach()

add_library(strata_language INTERFACE)
target_link_libraries(strata_language INTERFACE ${STRATA_LANGUAGE_LIBS})
set_target_properties(strata_language PROPERTIES EXPORT_NAME strata)
add_library(Strata::strata ALIAS strata_language)

install(TARGETS strata_language ${STRATA_INSTALLED_LIBS} EXPORT StrataTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS strata RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

foreach(dir core interpreter oracle fusion frontend parallel tbb jit cuda cache mpi)
  if(IS_DIRECTORY ${PROJECT_SOURCE_DIR}/${dir})
    install(DIRECTORY ${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/strata/${dir}
            FILES_MATCHING PATTERN "*.h")
  endif()
endforeach()

install(EXPORT StrataTargets NAMESPACE Strata:: DESTINATION ${STRATA_CMAKE_DIR})
# Which dependencies the installed targets need found (StrataConfig.cmake.in).
foreach(lib tbb jit cuda cache)
  string(TOUPPER ${lib} upper)
  if(TARGET strata_${lib})
    set(STRATA_EXPORTS_${upper} ON)
  else()
    set(STRATA_EXPORTS_${upper} OFF)
  endif()
endforeach()
set(STRATA_EXPORTS_MPI_TRANSPORT ${STRATA_HAVE_MPI_TRANSPORT})
configure_package_config_file(cmake/StrataConfig.cmake.in ${PROJECT_BINARY_DIR}/StrataConfig.cmake
                              INSTALL_DESTINATION ${STRATA_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/StrataConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/StrataConfig.cmake ${PROJECT_BINARY_DIR}/StrataConfigVersion.cmake
        DESTINATION ${STRATA_CMAKE_DIR})

# pkg-config: the same libraries, for builds without CMake.
set(STRATA_PC_LIBS "")
set(STRATA_PC_ORDER ${STRATA_INSTALLED_LIBS})
list(REMOVE_ITEM STRATA_PC_ORDER ${STRATA_LANGUAGE_LIBS})
list(APPEND STRATA_PC_ORDER ${STRATA_LANGUAGE_LIBS})
foreach(lib ${STRATA_PC_ORDER})
  string(APPEND STRATA_PC_LIBS " -l${lib}")
endforeach()
# The prefix is found relative to the .pc file, so an installed tree can move.
file(RELATIVE_PATH STRATA_PC_PREFIX_FROM_PCDIR ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})
if(TARGET strata_cache)
  string(APPEND STRATA_PC_LIBS " -lnettle")
endif()
if(TARGET strata_tbb)
  string(APPEND STRATA_PC_LIBS " -ltbb")
endif()
if(TARGET strata_jit)
  string(APPEND STRATA_PC_LIBS " -L${LLVM_LIBRARY_DIR} -lLLVM-19")
endif()
if(TARGET strata_cuda)
  string(APPEND STRATA_PC_LIBS " -L${CUDAToolkit_LIBRARY_DIR} -lnvrtc -ldl")
endif()
if(STRATA_HAVE_MPI_TRANSPORT)
  foreach(mpi_lib ${MPI_CXX_LIBRARIES})
    string(APPEND STRATA_PC_LIBS " ${mpi_lib}")
  endforeach()
endif()
configure_file(cmake/strata.pc.in ${PROJECT_BINARY_DIR}/strata.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/strata.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
