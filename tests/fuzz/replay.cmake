# Included by tests/CMakeLists.txt: the fuzz targets written with STRATA_FUZZ_TARGET
# (fuzz_target.h) are compiled into the test binary too, where tests/core/fuzz_regressions_test.cc
# replays tests/fuzz/corpus_regressions/<name>/ through them. One line per target.
function(strata_fuzz_replay name)
  set(src ${CMAKE_CURRENT_LIST_DIR}/${name}_fuzz.cc)
  target_sources(strata_core_tests PRIVATE ${src})
  set_source_files_properties(${src} PROPERTIES COMPILE_DEFINITIONS STRATA_FUZZ_REPLAY)
endfunction()

strata_fuzz_replay(chrome_json)
strata_fuzz_replay(xplane)
strata_fuzz_replay(hlo_text)
strata_fuzz_replay(hlo_proto)
strata_fuzz_replay(ascend_csv)
strata_fuzz_replay(training_log)
strata_fuzz_replay(compressed)
strata_fuzz_replay(runs)
strata_fuzz_replay(perfetto)
strata_fuzz_replay(sqlite)
strata_fuzz_replay(loss_jsonl)
strata_fuzz_replay(loss_csv)
strata_fuzz_replay(tfevents)
