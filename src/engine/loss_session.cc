#include "engine/loss_session.h"

#include <algorithm>

#include "core/base/json_writer.h"
#include "protocol/reply_keys.h"

namespace strata {

namespace {

// The first bytes (at most `max`) compressed `head` inflates to; a head cut mid-stream gives
// what came before the cut.
std::string inflated_head(std::string_view head, size_t max) {
  std::string text;
  const ByteSink keep = [&](const uint8_t* p, size_t k) {
    if (text.size() < max)
      text.append(reinterpret_cast<const char*>(p), std::min(k, max - text.size()));
  };
  InflatingFeed in;
  in.feed(reinterpret_cast<const uint8_t*>(head.data()), head.size(), keep);
  in.finish(keep);
  return text;
}

void append_list(std::string* out, const std::vector<std::string>& list) {
  *out += '[';
  for (size_t i = 0; i < list.size(); ++i) {
    if (i) *out += ',';
    json_append_string(out, list[i]);
  }
  *out += ']';
}

std::string detail(const LogScan& scan) {
  namespace k = protocol::keys::loss_info;
  std::string o;
  protocol::append_key(&o, k::kLossTag, '{');
  json_append_string(&o, scan.tags().loss);
  protocol::append_key(&o, k::kIterationTag);
  json_append_string(&o, scan.tags().iteration);
  protocol::append_key(&o, k::kFormat);
  json_append_string(&o, log_format_name(scan.format()));
  protocol::append_key(&o, k::kSeriesKeys);
  append_list(&o, scan.series_keys());
  protocol::append_key(&o, k::kStepKeys);
  append_list(&o, scan.step_keys());
  protocol::append_key(&o, k::kNote);
  json_append_string(&o, scan.note());
  return o + "}";
}

}  // namespace

std::string LossSession::guess_tags_json(std::string_view head) {
  // A compressed head is guessed from its text, at most as many bytes as the worker hands
  // over of a plain one.
  constexpr size_t kGuessBytes = 1 << 20;
  const auto* p = reinterpret_cast<const uint8_t*>(head.data());
  const bool plain = sniff_compression(p, head.size()) == Compression::kNone;
  const std::string text = plain ? std::string() : inflated_head(head, kGuessBytes);
  const LossTags t = guess_log_tags(plain ? head : std::string_view(text));
  std::string o;
  protocol::append_key(&o, protocol::keys::loss_info::kLossTag, '{');
  json_append_string(&o, t.loss);
  protocol::append_key(&o, protocol::keys::loss_info::kIterationTag);
  json_append_string(&o, t.iteration);
  return o + "}";
}

void LossSession::scan_begin(LossTags tags) {
  scan_ = std::make_unique<LogScan>(std::move(tags));
  detail_.clear();
  in_ = InflatingFeed();
}

uint8_t* LossSession::buffer(size_t n) {
  if (buf_.size() < n) buf_.resize(n);
  return buf_.data();
}

void LossSession::scan_commit(size_t n) {
  if (!scan_) return;
  in_.feed(buf_.data(), std::min(n, buf_.size()),
           [this](const uint8_t* p, size_t k) { scan_->feed(p, k); });
}

size_t LossSession::scan_end() {
  points_.clear();
  if (!scan_) return 0;
  in_.finish([this](const uint8_t* p, size_t k) { scan_->feed(p, k); });
  scan_->finish();
  const LossSeries s = scan_->take_points();
  detail_ = detail(*scan_);
  scan_.reset();
  points_.resize(s.size() * 2);
  for (size_t i = 0; i < s.size(); ++i) {
    points_[2 * i] = static_cast<double>(s.iteration[i]);
    points_[2 * i + 1] = s.loss[i];
  }
  return s.size();
}

void LossSession::release() {
  std::vector<uint8_t>().swap(buf_);
  std::vector<double>().swap(points_);
  std::string().swap(detail_);
}

}  // namespace strata
