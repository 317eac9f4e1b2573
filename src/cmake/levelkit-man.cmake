# levelkit-man.cmake - make one man page from a command's --help (run with
# cmake -P at build time; see CMakeLists.txt).  It runs the programs and
# hands their output to lk_help2man, so a page always matches its options.
#
#   -DHELP2MAN=path   the converter (docs/man/lk_help2man.c)
#   -DFRONT=path      the levelkit front command (for --list-commands)
#   -DPROGRAM=path    the program whose --help is converted
#   -DNAME=name       the page's name: levelkit or levelkit-CMD
#   -DVERSION=x.y.z   the version for the page footer
#   -DOUT=path        the page to write
#   -DSUMMARY=text    the NAME line's summary, for the front command's page
#   -DDOCROOT=dir -DDOCDIR=dir -DDOCS=a,b   documents listed in the page
#                     (comma-separated: a ';' would split the custom command)
#   -DEXTRA=path      the page's sections --help has no place for (exit
#                     status, environment, examples: docs/man/NAME.txt)
#   -DLEVELS=dir      where the sample packs are installed, for EXTRA

foreach(var HELP2MAN FRONT PROGRAM NAME VERSION OUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "levelkit-man.cmake: ${var} is not set")
  endif()
endforeach()

# run(OUTPUT_FILE COMMAND...): run a program; fail the build if it fails.
function(run output)
  execute_process(COMMAND ${ARGN} OUTPUT_FILE "${output}" RESULT_VARIABLE rc
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "levelkit-man.cmake: '${ARGN}' failed (${rc}): ${err}")
  endif()
endfunction()

run("${OUT}.commands" "${FRONT}" --list-commands)
run("${OUT}.help" "${PROGRAM}" --help)

set(args -n "${NAME}" -v "${VERSION}" -l "${OUT}.commands" -o "${OUT}")
if(DEFINED SUMMARY)
  list(APPEND args -d "${SUMMARY}")
endif()
if(DEFINED EXTRA)
  list(APPEND args -x "${EXTRA}")
  if(DEFINED LEVELS)
    list(APPEND args -L "${LEVELS}")
  endif()
endif()
if(DEFINED DOCROOT)
  list(APPEND args -D "${DOCROOT}" -I "${DOCDIR}")
endif()
list(APPEND args "${OUT}.help")
if(DEFINED DOCS)
  string(REPLACE "," ";" DOCS "${DOCS}")
  list(APPEND args ${DOCS})
endif()
execute_process(COMMAND "${HELP2MAN}" ${args} RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  file(REMOVE "${OUT}")
  message(FATAL_ERROR "levelkit-man.cmake: lk_help2man failed for ${NAME}")
endif()
file(REMOVE "${OUT}.commands" "${OUT}.help")
