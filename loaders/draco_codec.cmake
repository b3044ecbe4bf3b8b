# horde_draco: Draco's codec from Debian's libdraco-dev, without Draco's glTF transcoder.
#
# Debian builds libdraco with the transcoder, which carries a tinygltf and an stb_image of its own
# (other versions than libtinygltf's and libstb's). The shared libdraco exports their symbols, so
# that whichever of the two libraries an executable loads first supplies tinygltf's functions to
# the other's callers (a tinygltf::Model of another layout: garbage, then invalid frees); the
# static one hands its member to the linker for the first unresolved stbi_ symbol, with the same
# result. horde needs only the codec, so it links a copy of libdraco.a without the members that
# define tinygltf or stb symbols, checked below.
find_package(draco CONFIG REQUIRED)
get_target_property(draco_archive draco::draco_static LOCATION)
get_target_property(draco_includes draco::draco_static INTERFACE_INCLUDE_DIRECTORIES)
set(draco_codec "${CMAKE_BINARY_DIR}/draco/libdraco_codec.a")
set(draco_transcoder gltf_decoder.cc.o gltf_encoder.cc.o gltf_utils.cc.o mesh_io.cc.o scene_io.cc.o
                     tiny_gltf_utils.cc.o)
file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/draco")
file(COPY_FILE "${draco_archive}" "${draco_codec}" ONLY_IF_DIFFERENT)
execute_process(COMMAND "${CMAKE_AR}" d "${draco_codec}" ${draco_transcoder} RESULT_VARIABLE failed
                ERROR_QUIET)
execute_process(COMMAND "${CMAKE_NM}" --defined-only "${draco_codec}" OUTPUT_VARIABLE defined
                RESULT_VARIABLE nm_failed ERROR_QUIET)
if(nm_failed OR defined MATCHES "[^\n]* [TDBRVW] (stbi|_ZN8tinygltf)")
  message(FATAL_ERROR "${draco_archive}: its copy without the glTF transcoder still defines tinygltf or stb "
                      "symbols (loaders/draco_codec.cmake names the members to leave out)")
endif()
add_library(horde_draco STATIC IMPORTED GLOBAL)
set_target_properties(horde_draco PROPERTIES IMPORTED_LOCATION "${draco_codec}"
                                             INTERFACE_INCLUDE_DIRECTORIES "${draco_includes}")
