# protobuf-lite and the C++ protoc generates from proto/*.proto (XSpace, the HloProto subset).
#   * Natively: Debian's libprotobuf-dev (find_package), target protobuf::libprotobuf-lite.
#   * Emscripten: the lite runtime built from the pinned sources in third_party/src/protobuf
#     (scripts/setup.sh), the same 3.21.12 as protoc. The source list is read from protobuf's
#     own cmake/libprotobuf-lite.cmake with file(STRINGS): including that file would need the
#     rest of protobuf's CMake project.
# protoc runs on the build host in both cases (it is a code generator, not linked).
# Defines the target strata_proto (generated classes + runtime) that strata_core links.

find_program(STRATA_PROTOC protoc REQUIRED)

if(EMSCRIPTEN)
  set(PROTOBUF_DIR ${STRATA_THIRD_PARTY}/protobuf)
  set(_pb_list ${PROTOBUF_DIR}/cmake/libprotobuf-lite.cmake)
  if(NOT EXISTS ${_pb_list})
    message(FATAL_ERROR "${_pb_list} missing: run scripts/setup.sh")
  endif()
  file(STRINGS ${_pb_list} _pb_lines REGEX "^[ \t]*\\\${protobuf_SOURCE_DIR}/src/.*\\.cc[ \t]*$")
  set(_pb_sources)
  foreach(line ${_pb_lines})
    string(STRIP "${line}" line)
    string(REPLACE "\${protobuf_SOURCE_DIR}" "${PROTOBUF_DIR}" line "${line}")
    list(APPEND _pb_sources ${line})
  endforeach()
  list(LENGTH _pb_sources _pb_count)
  if(_pb_count LESS 20)
    message(FATAL_ERROR "found only ${_pb_count} protobuf-lite sources in ${_pb_list}")
  endif()
  add_library(strata_protobuf_lite STATIC ${_pb_sources})
  target_include_directories(strata_protobuf_lite SYSTEM PUBLIC ${PROTOBUF_DIR}/src)
  # No threads in our wasm modules (no SharedArrayBuffer on static hosting).
  target_compile_options(strata_protobuf_lite PRIVATE -w)
  set(STRATA_PROTOBUF_LITE strata_protobuf_lite)
else()
  find_package(Protobuf REQUIRED)
  set(STRATA_PROTOBUF_LITE protobuf::libprotobuf-lite)
endif()

# protoc → build/generated/proto/<name>.pb.{h,cc}, regenerated when the .proto changes.
set(STRATA_PROTO_OUT ${CMAKE_BINARY_DIR}/generated/proto)
file(MAKE_DIRECTORY ${STRATA_PROTO_OUT})
set(_proto_sources)
foreach(name xplane hlo)
  set(_in ${CMAKE_SOURCE_DIR}/proto/${name}.proto)
  add_custom_command(
    OUTPUT ${STRATA_PROTO_OUT}/${name}.pb.cc ${STRATA_PROTO_OUT}/${name}.pb.h
    COMMAND ${STRATA_PROTOC} --cpp_out=${STRATA_PROTO_OUT} -I${CMAKE_SOURCE_DIR}/proto ${_in}
    DEPENDS ${_in}
    COMMENT "protoc ${name}.proto" VERBATIM)
  list(APPEND _proto_sources ${STRATA_PROTO_OUT}/${name}.pb.cc)
endforeach()
add_library(strata_proto STATIC ${_proto_sources})
target_include_directories(strata_proto SYSTEM PUBLIC ${STRATA_PROTO_OUT})
target_link_libraries(strata_proto PUBLIC ${STRATA_PROTOBUF_LITE})
target_compile_options(strata_proto PRIVATE -w)
set_target_properties(strata_proto PROPERTIES POSITION_INDEPENDENT_CODE ON)
