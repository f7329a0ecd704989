# Decompressors built from the pinned sources in third_party/src (scripts/setup.sh), the same
# code natively and in wasm. Decompression only in the browser; strata-pack (native) adds zstd's
# compressor (CMakeLists.txt, strata_zstd_compress).

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

# SQLite, for the profilers' database exports (Nsight Systems, the Ascend PyTorch profiler):
# the amalgamation setup.sh builds from Debian's source package. Read-only use through Strata's
# own VFS (core/formats/sqlite/sqlite_vfs): no OS layer (SQLITE_OS_OTHER), no threads, no
# journal or WAL, no extensions, and the optional parts a reader never calls left out. Always
# optimised (even in the debug build: it is not our code, and a debug SQLite is slow).
set(SQLITE_DIR ${STRATA_THIRD_PARTY}/sqlite/amalgamation)
if(NOT EXISTS ${SQLITE_DIR}/sqlite3.c)
  message(FATAL_ERROR "${SQLITE_DIR}/sqlite3.c missing: run scripts/setup.sh")
endif()
add_library(strata_sqlite STATIC ${SQLITE_DIR}/sqlite3.c)
target_include_directories(strata_sqlite SYSTEM PUBLIC ${SQLITE_DIR})
target_compile_definitions(strata_sqlite PRIVATE SQLITE_OS_OTHER=1 SQLITE_THREADSAFE=0
  SQLITE_OMIT_LOAD_EXTENSION SQLITE_OMIT_WAL SQLITE_OMIT_SHARED_CACHE SQLITE_OMIT_DEPRECATED
  SQLITE_OMIT_PROGRESS_CALLBACK SQLITE_OMIT_DECLTYPE SQLITE_OMIT_JSON SQLITE_OMIT_UTF16
  SQLITE_OMIT_COMPLETE SQLITE_OMIT_GET_TABLE SQLITE_OMIT_TRACE SQLITE_OMIT_AUTHORIZATION
  SQLITE_DQS=0 SQLITE_DEFAULT_MEMSTATUS=0 SQLITE_LIKE_DOESNT_MATCH_BLOBS SQLITE_MAX_EXPR_DEPTH=0
  SQLITE_TEMP_STORE=3 SQLITE_DEFAULT_LOCKING_MODE=1)
target_compile_options(strata_sqlite PRIVATE -w -O2)
set_target_properties(strata_sqlite PROPERTIES POSITION_INDEPENDENT_CODE ON)
