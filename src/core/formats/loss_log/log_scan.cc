#include "core/formats/loss_log/log_scan.h"

#include "core/formats/loss_log/default_tags.h"
#include "core/formats/loss_log/delimited_reader.h"
#include "core/formats/loss_log/jsonl_reader.h"
#include "core/formats/loss_log/tfevents_reader.h"

namespace strata {

namespace {

std::unique_ptr<MetricsReader> make_reader(LogFormat f, MetricsSelection sel) {
  switch (f) {
    case LogFormat::kJsonLines:
      return std::make_unique<JsonLinesReader>(std::move(sel));
    case LogFormat::kJsonRecords:
      return std::make_unique<JsonRecordsReader>(std::move(sel));
    case LogFormat::kDelimited:
      return std::make_unique<DelimitedReader>(std::move(sel));
    case LogFormat::kTfEvents:
      return std::make_unique<TfEventsReader>(std::move(sel));
    case LogFormat::kText:
      break;
  }
  return nullptr;
}

}  // namespace

LogFormat sniff_log_format(const uint8_t* p, size_t n) {
  if (looks_like_tfevents(p, n)) return LogFormat::kTfEvents;
  if (looks_like_json_lines(p, n)) return LogFormat::kJsonLines;
  if (looks_like_json_records(p, n)) return LogFormat::kJsonRecords;
  if (looks_like_delimited_metrics(p, n)) return LogFormat::kDelimited;
  return LogFormat::kText;
}

const char* log_format_name(LogFormat f) {
  switch (f) {
    case LogFormat::kJsonLines:
      return "jsonl";
    case LogFormat::kJsonRecords:
      return "json";
    case LogFormat::kDelimited:
      return "csv";
    case LogFormat::kTfEvents:
      return "tfevents";
    case LogFormat::kText:
      break;
  }
  return "text";
}

LossTags guess_log_tags(std::string_view head) {
  const auto* p = reinterpret_cast<const uint8_t*>(head.data());
  const LogFormat f = sniff_log_format(p, head.size());
  if (f == LogFormat::kText) return guess_loss_tags(head);
  std::unique_ptr<MetricsReader> r = make_reader(f, {});
  r->feed(p, head.size());
  // A JSON document is read at its end; a head cut inside it has no records to guess from,
  // and an event file's reader guesses by itself at its end.
  if (f == LogFormat::kJsonRecords) r->finish();
  const MetricsSelection s =
      guess_metrics_selection(r->result(), f == LogFormat::kTfEvents ? "step" : kLineStep);
  return LossTags{s.series, s.step};
}

void LogScan::start(const uint8_t* p, size_t n) {
  started_ = true;
  format_ = sniff_log_format(p, n);
  if (format_ == LogFormat::kText)
    text_ = std::make_unique<LossScanner>(tags_);
  else
    reader_ = make_reader(format_, MetricsSelection{tags_.loss, tags_.iteration});
}

void LogScan::feed(const uint8_t* p, size_t n) {
  if (!started_) {
    head_.append(reinterpret_cast<const char*>(p), n);
    if (head_.size() < kSniffBytes) return;
    start(reinterpret_cast<const uint8_t*>(head_.data()), head_.size());
    const std::string head = std::move(head_);
    head_.clear();
    feed(reinterpret_cast<const uint8_t*>(head.data()), head.size());
    return;
  }
  if (text_)
    text_->feed(p, n);
  else
    reader_->feed(p, n);
}

void LogScan::finish() {
  if (finished_) return;
  if (!started_) {
    const std::string head = std::move(head_);
    head_.clear();
    start(reinterpret_cast<const uint8_t*>(head.data()), head.size());
    feed(reinterpret_cast<const uint8_t*>(head.data()), head.size());
  }
  finished_ = true;
  if (text_) {
    text_->finish();
    return;
  }
  reader_->finish();
  result_ = reader_->take_result();
  reader_.reset();
  if (result_.series.empty()) result_.series = tags_.loss;
  points_read_ = result_.points.size();
  tags_.loss = result_.series;
}

LossSeries LogScan::take_points() {
  if (text_) return text_->take_points();
  return std::move(result_.points);
}

std::string LogScan::note() const {
  if (format_ == LogFormat::kText) return "";
  std::string n = result_.error;
  if (result_.skipped) {
    if (!n.empty()) n += "; ";
    n += std::to_string(result_.skipped) + " of " + std::to_string(result_.records) +
         " records could not be read and were skipped (the first: " + result_.first_skip + ")";
  }
  if (result_.series_keys.empty()) {
    if (!n.empty()) n += "; ";
    n += format_ == LogFormat::kTfEvents ? "no scalar summaries in this event file"
                                         : "no numeric values in this file";
  } else if (!tags_.loss.empty() && points_read_ == 0) {
    bool listed = false;
    for (const std::string& k : result_.series_keys) listed = listed || k == tags_.loss;
    if (!n.empty()) n += "; ";
    n += listed
             ? "no record has both \"" + tags_.loss + "\" and the step \"" + tags_.iteration + "\""
             : "no series \"" + tags_.loss + "\" in this file";
  }
  return n;
}

std::vector<std::string> LogScan::step_keys() const {
  std::vector<std::string> steps = result_.step_keys;
  if (format_ != LogFormat::kTfEvents && format_ != LogFormat::kText) steps.emplace_back(kLineStep);
  return steps;
}

}  // namespace strata
