# Installs the libraries and headers as a CMake package:
#   find_package(autodiff CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE autodiff::autodiff_codegen)
include(CMakePackageConfigHelpers)
include(GNUInstallDirs)

install(TARGETS autodiff_frontend autodiff_bridge autodiff_codegen
                autodiff_llvm
        EXPORT autodiffTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/autodiff)
foreach(dir frontend codegen enzyme_bridge runtime)
  install(DIRECTORY ${AUTODIFF_SOURCE_ROOT}/${dir}/
          DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/autodiff/${dir}
          FILES_MATCHING PATTERN "*.h")
endforeach()
install(EXPORT autodiffTargets NAMESPACE autodiff::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/autodiff)
configure_package_config_file(cmake/autodiffConfig.cmake.in
  ${CMAKE_BINARY_DIR}/autodiffConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/autodiff)
write_basic_package_version_file(${CMAKE_BINARY_DIR}/autodiffConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_BINARY_DIR}/autodiffConfig.cmake
              ${CMAKE_BINARY_DIR}/autodiffConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/autodiff)
install(TARGETS autodiff-opt RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS AutodiffPlugin LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR})
# Usable straight from the build tree too.
export(EXPORT autodiffTargets NAMESPACE autodiff::
       FILE ${CMAKE_BINARY_DIR}/autodiffTargets.cmake)
