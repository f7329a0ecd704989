# Decompressors built from the pinned sources in third_party/src (scripts/setup.sh), the same
# code natively and in wasm. Decompression only: Strata never writes compressed files.

set(ZLIB_DIR ${STRATA_THIRD_PARTY}/zlib)
set(ZSTD_DIR ${STRATA_THIRD_PARTY}/zstd/lib)
foreach(f ${ZLIB_DIR}/inflate.c ${ZSTD_DIR}/decompress/zstd_decompress.c)
  if(NOT EXISTS ${f})
    message(FATAL_ERROR "${f} missing: run scripts/setup.sh")
  endif()
endforeach()

add_library(strata_zlib STATIC
  ${ZLIB_DIR}/inflate.c ${ZLIB_DIR}/inftrees.c ${ZLIB_DIR}/inffast.c ${ZLIB_DIR}/adler32.c
  ${ZLIB_DIR}/crc32.c ${ZLIB_DIR}/zutil.c)
target_include_directories(strata_zlib SYSTEM PUBLIC ${ZLIB_DIR})
target_compile_options(strata_zlib PRIVATE -w)
set_target_properties(strata_zlib PROPERTIES POSITION_INDEPENDENT_CODE ON)

file(GLOB STRATA_ZSTD_SOURCES ${ZSTD_DIR}/common/*.c ${ZSTD_DIR}/decompress/*.c)
add_library(strata_zstd STATIC ${STRATA_ZSTD_SOURCES})
target_include_directories(strata_zstd SYSTEM PUBLIC ${ZSTD_DIR})
# No assembly (the amd64 Huffman decoder is not portable to wasm), no threads, no legacy formats.
target_compile_definitions(strata_zstd PRIVATE ZSTD_DISABLE_ASM=1 ZSTD_MULTITHREAD=0 ZSTD_LEGACY_SUPPORT=0
  ZSTD_NO_TRACE=1 DEBUGLEVEL=0)
target_compile_options(strata_zstd PRIVATE -w)
