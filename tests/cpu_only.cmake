# Keeps the CPU side of horde free of Vulkan and of any window library: the loader tests and the
# fuzz targets must build and run on horde_cpu alone. Checked twice, because static linking
# hides one kind of slip from the other: a library named but unused leaves no symbol in the
# binary, and a symbol can arrive through a library that names nothing suspicious.
#
# Included by tests/CMakeLists.txt, this file defines horde_check_cpu_only(target). Run as a
# script (cmake -DBINARY=... -P cpu_only.cmake), it checks one linked binary.

set(HORDE_GPU_LIBRARIES volk glfw horde_gpu horde_window horde_shaders)

if(NOT CMAKE_SCRIPT_MODE_FILE)
  # Fails the configuration when `target` links a GPU or window library, directly or through
  # the libraries it links; then checks the binary each time it is linked.
  function(horde_check_cpu_only target)
    set(pending ${target})
    set(seen "")
    while(pending)
      list(POP_FRONT pending current)
      if(current IN_LIST seen)
        continue()
      endif()
      list(APPEND seen ${current})
      if(current IN_LIST HORDE_GPU_LIBRARIES)
        message(FATAL_ERROR "${target} links ${current}: it must build on horde_cpu alone (tests/cpu_only.cmake)")
      endif()
      if(NOT TARGET ${current})
        continue()
      endif()
      get_target_property(direct ${current} LINK_LIBRARIES)
      get_target_property(interface ${current} INTERFACE_LINK_LIBRARIES)
      foreach(library IN LISTS direct interface)
        # A static library's private dependencies reach its users wrapped in $<LINK_ONLY:...>.
        string(REGEX REPLACE "^\\$<LINK_ONLY:(.+)>$" "\\1" library "${library}")
        if(library AND NOT library MATCHES "-NOTFOUND$")
          list(APPEND pending ${library})
        endif()
      endforeach()
    endwhile()
    add_custom_command(TARGET ${target} POST_BUILD VERBATIM
                       COMMAND ${CMAKE_COMMAND} -DBINARY=$<TARGET_FILE:${target}> -P ${CMAKE_CURRENT_FUNCTION_LIST_FILE})
  endfunction()
  return()
endif()

# volk loads the Vulkan library at run time, so its symbols tell, not the shared libraries.
execute_process(COMMAND nm ${BINARY} OUTPUT_VARIABLE symbols RESULT_VARIABLE failed ERROR_QUIET)
if(failed)
  message(FATAL_ERROR "${BINARY}: nm could not read it")
endif()
string(REGEX MATCHALL "[ \t](volk[A-Za-z0-9_]*|vk[A-Z][A-Za-z0-9_]*|glfw[A-Z][A-Za-z0-9_]*)\n" found "${symbols}")
if(found)
  list(TRANSFORM found STRIP)
  list(SUBLIST found 0 5 some)
  message(FATAL_ERROR "${BINARY} holds Vulkan or GLFW symbols (${some}); it must build on horde_cpu alone")
endif()
execute_process(COMMAND ldd ${BINARY} OUTPUT_VARIABLE libraries RESULT_VARIABLE failed ERROR_QUIET)
if(failed)
  message(FATAL_ERROR "${BINARY}: ldd could not read it")
endif()
if(libraries MATCHES "lib(vulkan|glfw|X11|xcb|wayland)[^ \t\n]*")
  message(FATAL_ERROR "${BINARY} needs ${CMAKE_MATCH_0}; it must build on horde_cpu alone")
endif()
