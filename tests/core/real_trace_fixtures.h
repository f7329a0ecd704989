// The real traces of ../shared/data the step suites (steps, step partition, overview) read, and
// the reading itself: a gzipped Kineto trace as its JSON text, or imported. The readers return
// false when ../shared is absent (the caller then GTEST_SKIPs); a file there that does not
// inflate or import is also a test failure.
#pragma once
#include <gtest/gtest.h>

#include <string>

#include "import_test_util.h"

namespace strata::testing {

// PyTorch profiler, ResNet-50 on one GPU, with ProfilerStep#N slices and a data loader.
inline constexpr const char* kResnetKineto =
    "pytorch_kineto/kineto-tb_plugin/resnet50_num_workers_0/worker0.1623143566756.pt.trace.json.gz";
// PyTorch profiler on an H100 (one step, repeated as a gpu_user_annotation).
inline constexpr const char* kBertH100Kineto =
    "pytorch_kineto/tracelens/h100/gaunernst_bert-small-uncased__1016001.json.gz";
// TensorFlow profiler XSpace of an 8-GPU host, with device Steps rows.
inline constexpr const char* kTfGpuXplane = "xplane/xprof/34.83.195.179_6003.xplane.pb";

// The JSON text of a gzipped trace. A file that is there but does not inflate is a failure.
inline bool read_shared_gz(const std::string& rel, std::string* json) {
  std::string gz;
  if (!read_shared(rel, &gz)) return false;
  const bool ok = gunzip(gz, json);
  EXPECT_TRUE(ok) << rel << " does not inflate";
  return ok;
}

// A gzipped trace through the Chrome JSON importer; a failed import is a failure.
inline bool import_shared_gz(const std::string& rel, ImportResult* r) {
  std::string json;
  if (!read_shared_gz(rel, &json)) return false;
  *r = import_json(json);
  EXPECT_FALSE(r->failed) << rel << ": " << r->failure;
  return !r->failed;
}

}  // namespace strata::testing
