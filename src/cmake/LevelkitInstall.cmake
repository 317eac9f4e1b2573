# LevelkitInstall.cmake - what `cmake --install` puts where (included from
# the top CMakeLists.txt, after the targets):
#
#   bin/levelkit, bin/levelkit-CMD         the front command and the commands
#   lib/liblevelkit.a, include/levelkit/   the library and its headers
#   lib/pkgconfig/levelkit.pc              for pkg-config
#   lib/cmake/levelkit/                    for find_package(levelkit)
#   share/man/man1/levelkit*.1             made from --help at build time
#   share/bash-completion/completions/     levelkit and levelkit-CMD
#   share/doc/levelkit/                    README.md, LICENSE, docs/ (with images/)
#   share/levelkit/levels/                 the sample packs (the man pages' examples)
#
# Every path is relative to the prefix, so `--prefix P` at install time
# works, and levelkit.pc and the CMake package find the prefix from where
# they are installed.

# ------------------------------------------------------------- commands
install(TARGETS levelkit_front RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(cmd ${LEVELKIT_COMMANDS})
  install(PROGRAMS $<TARGET_FILE:${cmd}> DESTINATION ${CMAKE_INSTALL_BINDIR}
          RENAME levelkit-${cmd})
endforeach()

# -------------------------------------------------------------- library
install(TARGETS levelkit EXPORT levelkitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(DIRECTORY include/levelkit DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}
        FILES_MATCHING PATTERN "*.h")

set(LEVELKIT_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/levelkit)
install(EXPORT levelkitTargets NAMESPACE levelkit:: DESTINATION ${LEVELKIT_CMAKEDIR})
include(CMakePackageConfigHelpers)
configure_package_config_file(src/cmake/levelkitConfig.cmake.in
  ${PROJECT_BINARY_DIR}/levelkitConfig.cmake INSTALL_DESTINATION ${LEVELKIT_CMAKEDIR})
# 0.x: a new minor version may change the API
write_basic_package_version_file(${PROJECT_BINARY_DIR}/levelkitConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/levelkitConfig.cmake
              ${PROJECT_BINARY_DIR}/levelkitConfigVersion.cmake
        DESTINATION ${LEVELKIT_CMAKEDIR})

# levelkit.pc: relocatable through ${pcfiledir} when the directories are
# relative to the prefix (the usual case), absolute otherwise.
set(pc_dir ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
if(IS_ABSOLUTE "${CMAKE_INSTALL_LIBDIR}" OR IS_ABSOLUTE "${CMAKE_INSTALL_INCLUDEDIR}")
  set(PC_PREFIX "${CMAKE_INSTALL_PREFIX}")
  set(PC_LIBDIR "${CMAKE_INSTALL_FULL_LIBDIR}")
  set(PC_INCLUDEDIR "${CMAKE_INSTALL_FULL_INCLUDEDIR}")
else()
  file(RELATIVE_PATH pc_up /p/${pc_dir} /p)
  string(REGEX REPLACE "/$" "" pc_up "${pc_up}")
  set(PC_PREFIX "\${pcfiledir}/${pc_up}")
  set(PC_LIBDIR "\${prefix}/${CMAKE_INSTALL_LIBDIR}")
  set(PC_INCLUDEDIR "\${prefix}/${CMAKE_INSTALL_INCLUDEDIR}")
endif()
set(PC_LIBS "-lm -pthread")
if(LEVELKIT_SANITIZE)
  string(APPEND PC_LIBS " -fsanitize=address,undefined")
endif()
configure_file(src/cmake/levelkit.pc.in ${PROJECT_BINARY_DIR}/levelkit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/levelkit.pc DESTINATION ${pc_dir})

# ------------------------------------------------------ sample levels
# The bundled packs, which the man pages' examples use (and README's
# installed examples name): share/levelkit/levels.
set(LEVELKIT_LEVELSDIR ${CMAKE_INSTALL_DATADIR}/levelkit/levels)
set(LEVELKIT_FULL_LEVELSDIR ${CMAKE_INSTALL_FULL_DATADIR}/levelkit/levels)
install(DIRECTORY levels/ DESTINATION ${LEVELKIT_LEVELSDIR})

# ------------------------------------------------------------ man pages
# Each page is made from the program's --help by docs/man/lk_help2man.c (run by
# src/cmake/levelkit-man.cmake), so it lists exactly the options the program
# takes.  levelkit(1) also lists the documents installed with it.
if(LEVELKIT_MAN)
  add_executable(lk_help2man docs/man/lk_help2man.c)
  target_compile_options(lk_help2man PRIVATE ${LEVELKIT_WARNINGS})

  file(GLOB_RECURSE levelkit_docs RELATIVE ${PROJECT_SOURCE_DIR}
       CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
  list(SORT levelkit_docs)
  string(REPLACE ";" "," levelkit_docs_arg "${levelkit_docs}")
  list(TRANSFORM levelkit_docs PREPEND ${PROJECT_SOURCE_DIR}/ OUTPUT_VARIABLE levelkit_doc_files)
  # a document's title shows in levelkit(1)

  set(man_dir ${PROJECT_BINARY_DIR}/man)
  file(MAKE_DIRECTORY ${man_dir})
  set(man_script ${PROJECT_SOURCE_DIR}/src/cmake/levelkit-man.cmake)
  set(man_common -DHELP2MAN=$<TARGET_FILE:lk_help2man> -DFRONT=$<TARGET_FILE:levelkit_front>
                 -DVERSION=${PROJECT_VERSION} -DLEVELS=${LEVELKIT_FULL_LEVELSDIR})
  add_custom_command(OUTPUT ${man_dir}/levelkit.1
    COMMAND ${CMAKE_COMMAND} ${man_common} -DPROGRAM=$<TARGET_FILE:levelkit_front>
            -DNAME=levelkit -DOUT=${man_dir}/levelkit.1
            "-DSUMMARY=generate, solve, rate and filter puzzle levels"
            -DDOCROOT=${PROJECT_SOURCE_DIR} -DDOCDIR=${CMAKE_INSTALL_DOCDIR}
            -DDOCS=${levelkit_docs_arg} -DEXTRA=${PROJECT_SOURCE_DIR}/docs/man/levelkit.txt
            -P ${man_script}
    DEPENDS lk_help2man levelkit_front ${man_script} ${levelkit_doc_files}
            ${PROJECT_SOURCE_DIR}/docs/man/levelkit.txt
    COMMENT "Making the man page levelkit.1" VERBATIM)
  set(man_pages ${man_dir}/levelkit.1)
  foreach(cmd ${LEVELKIT_COMMANDS})
    add_custom_command(OUTPUT ${man_dir}/levelkit-${cmd}.1
      COMMAND ${CMAKE_COMMAND} ${man_common} -DPROGRAM=$<TARGET_FILE:${cmd}>
              -DNAME=levelkit-${cmd} -DOUT=${man_dir}/levelkit-${cmd}.1
              -DEXTRA=${PROJECT_SOURCE_DIR}/docs/man/levelkit-${cmd}.txt -P ${man_script}
      DEPENDS lk_help2man levelkit_front ${cmd} ${man_script}
              ${PROJECT_SOURCE_DIR}/docs/man/levelkit-${cmd}.txt
      COMMENT "Making the man page levelkit-${cmd}.1" VERBATIM)
    list(APPEND man_pages ${man_dir}/levelkit-${cmd}.1)
  endforeach()
  add_custom_target(man ALL DEPENDS ${man_pages})
  install(FILES ${man_pages} DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
endif()

# ----------------------------------------------------------- completion
# One script serves every name: bash-completion loads completions/NAME
# when NAME is first completed.
set(completion_dir ${CMAKE_INSTALL_DATADIR}/bash-completion/completions)
install(FILES src/cli/levelkit.bash DESTINATION ${completion_dir} RENAME levelkit)
foreach(cmd ${LEVELKIT_COMMANDS})
  install(FILES src/cli/levelkit.bash DESTINATION ${completion_dir}
          RENAME levelkit-${cmd})
endforeach()

# ------------------------------------------------------------ documents
install(FILES README.md LICENSE DESTINATION ${CMAKE_INSTALL_DOCDIR})
# the pages and their pictures (README shows docs/images/levels.svg)
install(DIRECTORY docs DESTINATION ${CMAKE_INSTALL_DOCDIR}
        FILES_MATCHING PATTERN "*.md" PATTERN "*.svg" PATTERN "*.png")
