// The training-log fuzz targets' bodies, one function each, so that
// tests/core/loss_fuzz_regressions_test.cc replays saved inputs exactly as the targets ran them.
// The first two input bytes choose where the rest is split into three chunks, so records,
// quotes, escapes and frames cut across feed() calls are explored, not only whole files.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>

#include "core/formats/loss_log/crc32c.h"
#include "core/formats/loss_log/delimited_reader.h"
#include "core/formats/loss_log/json_record.h"
#include "core/formats/loss_log/jsonl_reader.h"
#include "core/formats/loss_log/log_scan.h"
#include "core/formats/loss_log/metrics_reader.h"
#include "core/formats/loss_log/tfevents_reader.h"

namespace strata::fuzz {

inline void feed_split(MetricsReader* r, const uint8_t* data, size_t size) {
  if (size < 2) return;
  const size_t n = size - 2;
  const uint8_t* body = data + 2;
  size_t a = n ? data[0] % (n + 1) : 0;
  size_t b = n ? data[1] % (n + 1) : 0;
  if (a > b) std::swap(a, b);
  r->feed(body, a);
  r->feed(body + a, b - a);
  r->feed(body + b, n - b);
  r->finish();
  const MetricsResult& res = r->result();
  if (res.points.iteration.size() != res.points.loss.size()) __builtin_trap();
  (void)guess_metrics_selection(res, kLineStep);
}

inline void fuzz_json_logs(const uint8_t* data, size_t size) {
  // The series "loss" under the step "step", and the first key found under the line number.
  JsonLinesReader lines(MetricsSelection{"loss", "step"});
  feed_split(&lines, data, size);
  JsonRecordsReader records(MetricsSelection{"train/loss", std::string(kLineStep)});
  feed_split(&records, data, size);
  (void)looks_like_json_lines(data, size);
  (void)looks_like_json_records(data, size);
  (void)guess_log_tags(std::string_view(reinterpret_cast<const char*>(data), size));
}

inline void fuzz_csv_logs(const uint8_t* data, size_t size) {
  DelimitedReader by_step(MetricsSelection{"Value", "Step"});
  feed_split(&by_step, data, size);
  DelimitedReader by_row(MetricsSelection{"loss", std::string(kLineStep)});
  feed_split(&by_row, data, size);
  (void)looks_like_delimited_metrics(data, size);
}

inline void fuzz_tfevents(const uint8_t* data, size_t size) {
  if (size < 3) return;
  std::string framed(reinterpret_cast<const char*>(data), 3);  // split points, flip choice
  for (size_t at = 3; at + 2 <= size;) {
    size_t n = data[at] | data[at + 1] << 8;
    at += 2;
    n = std::min(n, size - at);
    const uint64_t len = n;
    char head[12];
    std::memcpy(head, &len, 8);
    const uint32_t lc = crc32c_mask(crc32c(reinterpret_cast<const uint8_t*>(head), 8));
    std::memcpy(head + 8, &lc, 4);
    framed.append(head, 12);
    framed.append(reinterpret_cast<const char*>(data + at), n);
    const uint32_t dc = crc32c_mask(crc32c(data + at, n));
    framed.append(reinterpret_cast<const char*>(&dc), 4);
    at += n;
  }
  if ((data[2] & 1) && framed.size() > 3) {
    const size_t bit = (static_cast<size_t>(data[2]) * 2654435761u) % ((framed.size() - 3) * 8);
    framed[3 + bit / 8] ^= static_cast<char>(1 << (bit % 8));
  }
  framed.erase(2, 1);
  TfEventsReader r(MetricsSelection{"loss", "step"});
  feed_split(&r, reinterpret_cast<const uint8_t*>(framed.data()), framed.size());
  (void)looks_like_tfevents(data, size);
}

}  // namespace strata::fuzz
