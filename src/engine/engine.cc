#include "engine/engine.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <new>

#include "core/analysis/queue_length.h"
#include "core/base/json_writer.h"
#include "core/bundle/flow_tiles.h"
#include "core/formats/compression/decompressing_importer.h"
#include "core/formats/detect_format.h"
#include "core/formats/format_sniffer.h"
#include "core/formats/perfetto/perfetto_details.h"
#include "core/formats/xplane/xplane_details.h"
#include "core/query/event_json.h"
#include "core/query/find.h"
#include "core/query/flows.h"
#include "core/query/hierarchy.h"
#include "core/query/launches.h"
#include "core/query/viewport.h"
#include "engine/analysis/analysis_cache.h"
#include "engine/analysis/op_cells.h"
#include "engine/bundle_partial.h"
#include "engine/bundle_session.h"
#include "engine/find_reply.h"
#include "engine/graph_session.h"
#include "engine/lazy_tiles.h"
#include "engine/pod/pod_lazy.h"
#include "protocol/reply_keys.h"
#include "protocol/view_messages.h"

namespace strata {

namespace {

constexpr size_t kMaxCsvBytes = size_t{1} << 30;

SourceFile make_source_file(std::string_view name, uint64_t bytes, std::string format) {
  SourceFile f;
  f.name = std::string(name);
  f.bytes = bytes;
  f.format = std::move(format);
  return f;
}

}  // namespace

Engine::Engine() : store_(std::make_unique<TraceStore>()) {}
Engine::~Engine() = default;

BundleSession* Engine::bundle_session() const { return bundle_ ? bundle_->single() : nullptr; }

GraphSession& Engine::graph_session() const {
  if (!graph_) graph_ = std::make_unique<GraphSession>(*this);
  return *graph_;
}

void Engine::set_next_load_notes(std::string_view lines) {
  next_load_notes_.clear();
  for (size_t at = 0; at < lines.size();) {
    size_t end = lines.find('\n', at);
    if (end == std::string_view::npos) end = lines.size();
    if (end > at) next_load_notes_.emplace_back(lines.substr(at, end - at));
    at = end + 1;
  }
}

void Engine::load_begin(std::string_view name, uint64_t total_bytes) {
  loading_ = std::make_unique<TraceStore>();
  loading_->notes = std::move(next_load_notes_);
  next_load_notes_.clear();
  loading_->files.push_back(make_source_file(name, total_bytes, "chrome-json"));
  // Every file enters through the decompressing importer: gzip/zstd are recognised by their
  // magic bytes, anything else passes straight through to the format's importer.
  importer_ =
      make_decompressing_importer(loading_.get(), make_format_sniffing_importer(loading_.get()));
  sliced_ = sliced_xspace_ = false;
  loading_name_ = name;
  loading_total_ = total_bytes;
  last_load_merged_ = false;
  csv_.reset();
  loaded_bytes_ = file_start_ = 0;
  preview_fed_ = 0;
  preview_store_.reset();
  preview_importer_.reset();
  if (total_bytes >= preview_min_file_ && preview_bytes_ > 0) {
    preview_store_ = std::make_unique<TraceStore>();
    preview_store_->files = loading_->files;
    preview_store_->files[0].bytes = preview_bytes_;  // importers size their buffers by it
    preview_importer_ = make_decompressing_importer(
        preview_store_.get(), make_format_sniffing_importer(preview_store_.get()));
  }
}

// Makes `store` the current trace (a new generation for the UI).
void Engine::install(std::unique_ptr<TraceStore> store, Pyramid pyramid) {
  bundle_.reset();  // a lazy bundle sets its session after installing its tables
  store_ = std::move(store);
  pyramid_ = std::move(pyramid);
  ++generation_;
  extractor_ = RecordExtractor();  // its window belonged to the previous file
  index_display_order();
  strings_sent_.assign(store_->strings.size(), 0);
  memory_reset();
}

bool Engine::install_built(std::unique_ptr<TraceStore> store, uint64_t bytes) {
  Pyramid pyramid;
  try {
    pyramid = build_pyramid(*store);
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while building the zoom levels");
    return false;
  }
  loading_.reset();
  loaded_bytes_ = bytes;
  install(std::move(store), std::move(pyramid));
  last_error_.clear();
  session_errors_.clear();  // earlier failed opens are history once a new trace is in place
  loading_name_.clear();
  return true;
}

void Engine::feed_preview(size_t n) {
  if (!preview_importer_) return;
  const size_t take = static_cast<size_t>(std::min<uint64_t>(n, preview_bytes_ - preview_fed_));
  preview_importer_->feed(scratch_.data(), take);
  preview_fed_ += take;
  if (preview_fed_ < preview_bytes_) return;
  preview_importer_->finish();
  const bool usable = !preview_importer_->failed() && preview_store_->events.size() > 0;
  preview_importer_.reset();
  if (!usable) {
    preview_store_.reset();
    return;
  }
  // The preview ends mid-file by design: its "cut off" messages are not the file's.
  preview_store_->errors.clear();
  preview_store_->warnings.assign(
      1, "still loading: showing the first " + std::to_string(preview_bytes_ >> 20) + " MB");
  Pyramid p = build_pyramid(*preview_store_);
  if (!previous_) {
    previous_ = std::move(store_);
    previous_pyramid_ = std::move(pyramid_);
  }
  install(std::move(preview_store_), std::move(p));
}

uint8_t* Engine::load_buffer(size_t n) {
  if (scratch_.size() < n) scratch_.resize(n);
  return scratch_.data();
}

void Engine::load_commit(size_t n) {
  if (!importer_ || n > scratch_.size()) return;
  // An Ascend memory CSV (told by its header) goes to the memory chart, not the importers.
  // The engine goes by content only: names route files before they reach it.
  if (loaded_bytes_ == 0 && !csv_ &&
      detect_format({}, scratch_.data(), n).kind == FileKind::kAscendCsv)
    csv_ = std::make_unique<WholeText>(kMaxCsvBytes,
                                       "an Ascend memory CSV larger than 1 GiB is too big to open");
  if (csv_) {
    csv_->feed(scratch_.data(), n);
    loaded_bytes_ += n;
    return;
  }
  try {
    importer_->feed(scratch_.data(), n);
    loaded_bytes_ += n;
    feed_preview(n);
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while loading (the browser's wasm memory limit is 4 GB)");
  }
}

uint64_t Engine::load_records() const { return importer_ ? importer_->records() : 0; }

void Engine::load_fail(std::string_view message) {
  last_error_ =
      loading_name_.empty() ? std::string(message) : loading_name_ + ": " + std::string(message);
  session_errors_.push_back(last_error_);
  loading_name_.clear();
  importer_.reset();
  csv_.reset();
  loading_.reset();
  pod_lazy_.reset();
  preview_importer_.reset();
  preview_store_.reset();
  if (previous_) install(std::move(previous_), std::move(previous_pyramid_));  // undo the preview
  std::vector<uint8_t>().swap(scratch_);
}

bool Engine::load_next_file(std::string_view name, uint64_t bytes) {
  if (!importer_ || !loading_) return false;
  // The first-part preview is of the first file only.
  preview_importer_.reset();
  preview_store_.reset();
  loading_->files.back().bytes = loaded_bytes_ - file_start_;
  loading_->files.push_back(make_source_file(name, bytes, loading_->files.front().format));
  bool ok = false;
  try {
    ok = importer_->next_file();
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while loading (the browser's wasm memory limit is 4 GB)");
    return false;
  }
  if (!ok) {
    loading_->files.pop_back();
    last_error_ = std::string(name) +
                  " was not opened: only XProf xplanes (one per host) and Chrome / Kineto "
                  "traces (one per rank) open several at once; open other traces one at a time";
    loading_->errors.push_back(last_error_);  // listed with the trace that did load
    return false;
  }
  file_start_ = loaded_bytes_;
  loading_total_ += bytes;
  return true;
}

bool Engine::load_end() {
  if (!importer_) return false;  // already failed
  if (csv_) return csv_load_end();
  // finish() and the pyramid are the load's peak of memory, and wasm memory never shrinks:
  // free first what they do not need. The load buffer is read no more; a first-part preview
  // on show (previous_ is set then) is replaced by the full store below, or load_fail brings
  // the previous trace back (nothing queries the engine while this call runs).
  std::vector<uint8_t>().swap(scratch_);
  preview_importer_.reset();
  preview_store_.reset();
  if (previous_) {
    store_ = std::make_unique<TraceStore>();
    pyramid_ = Pyramid();
  }
  try {
    importer_->finish();
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while indexing the trace");
    return false;
  }
  if (importer_->failed()) {
    load_fail(importer_->failure());
    return false;
  }
  loading_->files.back().bytes = loaded_bytes_ - file_start_;
  importer_.reset();  // its lookup tables and buffers, before the pyramid's
  Pyramid pyramid;
  std::optional<GpuWorkSet> gpu;  // the analyses' too
  try {
    add_queue_length_tracks(loading_.get(), &gpu);  // derived counter tracks, drawn like the file's
    pyramid = build_pyramid(*loading_);
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while building the zoom levels");
    return false;
  }
  previous_.reset();
  previous_pyramid_ = Pyramid();
  install(std::move(loading_), std::move(pyramid));
  try {
    warm_op_metrics(*store_);
  } catch (const std::bad_alloc&) {  // the op analyses will say so when asked; the trace stays
  }
  if (gpu) seed_shared_gpu_work(*this, std::move(*gpu));
  last_error_.clear();
  session_errors_.clear();  // earlier failed opens are history once a new trace is in place
  loading_name_.clear();
  return true;
}

void Engine::index_display_order() {
  const TraceStore& s = *store_;
  display_tracks_.clear();
  for (const Process& p : s.processes)
    display_tracks_.insert(display_tracks_.end(), p.tracks.begin(), p.tracks.end());
  store_to_display_.assign(s.tracks.size(), 0);
  for (uint32_t i = 0; i < display_tracks_.size(); ++i) store_to_display_[display_tracks_[i]] = i;
}

std::string Engine::summary_json() const {
  const TraceStore& s = *store_;
  namespace sum = protocol::keys::summary;
  namespace file = protocol::keys::summary_file;
  std::string o;
  protocol::append_key(&o, sum::kFiles, '{');
  o += '[';
  for (size_t i = 0; i < s.files.size(); ++i) {
    if (i) o += ',';
    protocol::append_key(&o, file::kName, '{');
    json_append_string(&o, s.files[i].name);
    protocol::append_key(&o, file::kBytes);
    json_append_int(&o, static_cast<int64_t>(s.files[i].bytes));
    protocol::append_key(&o, file::kFormat);
    json_append_string(&o, s.files[i].format);
    o += ",\"compression\":";
    json_append_string(&o, s.files[i].compression);
    o += '}';
  }
  o += ']';
  protocol::append_key(&o, sum::kPhases);
  o += '{';
  bool first = true;
  for (int c = 0; c < 256; ++c) {
    if (!s.phase_counts[c]) continue;
    if (!first) o += ',';
    first = false;
    std::string key = c == 0 ? std::string("(none)") : std::string(1, static_cast<char>(c));
    json_append_string(&o, key);
    o += ':';
    json_append_int(&o, static_cast<int64_t>(s.phase_counts[c]));
  }
  uint32_t counter_tracks = 0;
  for (const Track& t : s.tracks) counter_tracks += t.kind == TrackKind::kCounter;
  o += '}';
  protocol::append_key(&o, sum::kEvents);
  o += std::to_string(bundle_ ? bundle_->events() : s.events.size());
  protocol::append_key(&o, sum::kCounters);
  o += std::to_string(s.samples.size() - derived_counter_samples(s));  // the file's counters
  o += ",\"counterTracks\":" + std::to_string(counter_tracks);
  o += ",\"flows\":" +
       std::to_string(bundle_session() ? bundle_session()->manifest().flows : s.flows.size());
  protocol::append_key(&o, sum::kTracks);
  o += std::to_string(s.tracks.size());
  protocol::append_key(&o, sum::kProcesses);
  o += std::to_string(s.processes.size());
  o += ",\"strings\":" + std::to_string(s.strings.size());
  o += ",\"storeBytes\":" + std::to_string(s.memory_bytes());
  o += ",\"pyramidBytes\":" + std::to_string(pyramid_.memory_bytes());
  o += ",\"pyramidLevels\":" + std::to_string(pyramid_.levels.size());
  protocol::append_key(&o, sum::kStartNs);
  json_append_int(&o, s.has_time ? s.start_ns : 0);
  protocol::append_key(&o, sum::kEndNs);
  json_append_int(&o, s.has_time ? s.end_ns : 0);
  protocol::append_key(&o, sum::kErrors);
  o += '[';
  first = true;
  auto add_all = [&](const std::vector<std::string>& v) {
    for (const std::string& e : v) {
      if (!first) o += ',';
      first = false;
      json_append_string(&o, e);
    }
  };
  add_all(s.errors);
  add_all(session_errors_);
  if (bundle_) add_all(bundle_->errors());
  o += ']';
  protocol::append_key(&o, sum::kWarnings);
  o += '[';
  first = true;
  add_all(s.warnings);
  o += "]";
  protocol::append_key(&o, sum::kNotes);
  o += '[';
  first = true;
  add_all(s.notes);
  o += ']';
  if (bundle_) {  // a lazy bundle: what its tiles cost so far
    namespace b = protocol::keys::summary_bundle;
    const BundleStats st = bundle_->stats();
    protocol::append_key(&o, sum::kBundle);
    protocol::append_key(&o, b::kBytes, '{');
    json_append_int(&o, static_cast<int64_t>(bundle_->bundle_bytes()));
    protocol::append_key(&o, b::kTiles);
    json_append_int(&o, static_cast<int64_t>(bundle_->tiles()));
    protocol::append_key(&o, b::kTilesFetched);
    json_append_int(&o, static_cast<int64_t>(st.tiles_fetched));
    protocol::append_key(&o, b::kBytesFetched);
    json_append_int(&o, static_cast<int64_t>(st.bytes_fetched));
    protocol::append_key(&o, b::kTilesFailed);
    json_append_int(&o, static_cast<int64_t>(st.tiles_failed));
    protocol::append_key(&o, b::kCacheBytes);
    json_append_int(&o, static_cast<int64_t>(st.cache_bytes));
    protocol::append_key(&o, b::kCacheTiles);
    json_append_int(&o, static_cast<int64_t>(st.cache_tiles));
    protocol::append_key(&o, b::kCacheCap);
    json_append_int(&o, static_cast<int64_t>(bundle_->cache_cap()));
    protocol::append_key(&o, b::kEvictions);
    json_append_int(&o, static_cast<int64_t>(st.evictions));
    o += '}';
  }
  if (!s.planes.empty()) {  // xplane inputs: the file's planes and lines, XEvents per line
    o += ",\"planes\":[";
    for (size_t i = 0; i < s.planes.size(); ++i) {
      o += i ? ",{\"name\":" : "{\"name\":";
      json_append_string(&o, s.planes[i].name);
      o += ",\"lines\":[";
      for (size_t k = 0; k < s.planes[i].lines.size(); ++k) {
        o += k ? ",{\"name\":" : "{\"name\":";
        json_append_string(&o, s.planes[i].lines[k].name);
        o += ",\"events\":" + std::to_string(s.planes[i].lines[k].events) + "}";
      }
      o += "]}";
    }
    o += "]";
  }
  o += "}";
  return o;
}

namespace {

template <typename T>
void put(std::vector<uint8_t>* out, const T& v) {
  size_t at = out->size();
  out->resize(at + sizeof(T));
  std::memcpy(out->data() + at, &v, sizeof(T));
}

// Character blob builder: appends text, returns its offset.
struct Chars {
  std::string bytes;
  uint32_t add(std::string_view s) {
    uint32_t off = static_cast<uint32_t>(bytes.size());
    bytes.append(s);
    return off;
  }
};

void finish_message(std::vector<uint8_t>* out, const Chars& chars) {
  out->insert(out->end(), chars.bytes.begin(), chars.bytes.end());
  while (out->size() % 8) out->push_back(0);
  uint32_t size = static_cast<uint32_t>(out->size());
  std::memcpy(out->data() + offsetof(proto::Header, size), &size, sizeof size);
}

}  // namespace

std::vector<uint8_t> Engine::track_list() const {
  const TraceStore& s = *store_;
  std::vector<uint8_t> out;
  Chars chars;
  put(&out, proto::Header{proto::MsgType::kTrackList, 0, generation_, 0});
  proto::TrackListHead head{};
  head.origin_ns = s.has_time ? s.start_ns : 0;
  head.extent_ns = s.has_time ? static_cast<double>(s.end_ns - s.start_ns) : 0;
  head.process_count = static_cast<uint32_t>(s.processes.size());
  head.track_count = static_cast<uint32_t>(s.tracks.size());
  head.series_count = static_cast<uint32_t>(s.series.size());
  head.string_count = static_cast<uint32_t>(s.strings.size());
  size_t head_at = out.size();
  put(&out, head);
  // Tracks are sent in display order: each process's tracks contiguous.
  std::vector<uint32_t> order;
  order.reserve(s.tracks.size());
  for (const Process& p : s.processes) {
    proto::ProcessEntry pe{};
    pe.pid = p.pid;
    std::string_view nm = s.strings.get(p.name);
    pe.name_len = static_cast<uint32_t>(nm.size());
    pe.name_off = chars.add(nm);
    pe.first_track = static_cast<uint32_t>(order.size());
    pe.track_count = static_cast<uint32_t>(p.tracks.size());
    std::string labels;
    for (StrId l : p.labels) labels += (labels.empty() ? "" : ", ") + std::string(s.strings.get(l));
    pe.labels_len = static_cast<uint32_t>(labels.size());
    pe.labels_off = chars.add(labels);
    pe.key_len = static_cast<uint32_t>(p.key.size());
    pe.key_off = chars.add(p.key);
    order.insert(order.end(), p.tracks.begin(), p.tracks.end());
    put(&out, pe);
  }
  for (uint32_t ti : order) {
    const Track& t = s.tracks[ti];
    proto::TrackEntry te{};
    te.tid = t.tid;
    te.process = t.process;
    te.kind = static_cast<uint32_t>(t.kind);
    std::string_view nm = s.strings.get(t.name);
    te.name_len = static_cast<uint32_t>(nm.size());
    te.name_off = chars.add(nm);
    te.rows = t.kind == TrackKind::kCounter ? 1 : t.max_depth + 1;
    te.event_count = bundle_ ? bundle_->track_events(ti) : t.event_count;
    te.first_series = t.first_series;
    te.series_count = t.series_count;
    put(&out, te);
  }
  for (const CounterSeries& se : s.series) {
    proto::SeriesEntry e{};
    e.min = 0, e.max = 0;
    for (uint32_t i = 0; i < se.sample_count; ++i) {
      double v = s.samples.value[se.first_sample + i];
      if (i == 0 || v < e.min) e.min = v;
      if (i == 0 || v > e.max) e.max = v;
    }
    if (bundle_) {  // no samples at hand: the index's range of the series
      const size_t si = static_cast<size_t>(&se - s.series.data());
      e.min = bundle_->series_min()[si], e.max = bundle_->series_max()[si];
    }
    e.track = store_to_display_[se.track];
    std::string_view nm = s.strings.get(se.name);
    e.name_len = static_cast<uint32_t>(nm.size());
    e.name_off = chars.add(nm);
    e.flags = se.in_bytes ? proto::kSeriesInBytes : 0;
    put(&out, e);
  }
  head.chars_bytes = static_cast<uint32_t>(chars.bytes.size());
  std::memcpy(out.data() + head_at, &head, sizeof head);
  finish_message(&out, chars);
  return out;
}

bool Engine::view_query(const uint8_t* request, size_t n, ViewportQuery* q) const {
  if (n < sizeof(proto::Header) + sizeof(proto::ViewRequestBody)) return false;
  proto::Header rh;
  proto::ViewRequestBody rq;
  std::memcpy(&rh, request, sizeof rh);
  std::memcpy(&rq, request + sizeof rh, sizeof rq);
  if (rh.type != proto::MsgType::kViewRequest) return false;
  q->origin = store_->has_time ? store_->start_ns : 0;
  q->start = rq.start;
  q->end = rq.end;
  q->width_px = std::clamp<uint32_t>(rq.width_px, 1, 16384);
  return true;
}

std::vector<uint8_t> Engine::view(const uint8_t* request, size_t n) {
  std::vector<uint8_t> out;
  ViewportQuery q;
  if (!view_query(request, n, &q)) return out;
  proto::Header rh;
  proto::ViewRequestBody rq;
  std::memcpy(&rh, request, sizeof rh);
  std::memcpy(&rq, request + sizeof rh, sizeof rq);
  const TraceStore& s = *store_;
  std::vector<VisibleSlice> slices;
  std::vector<CounterBucket> buckets;
  if (bundle_) {
    bundle_->view(q, &slices, &buckets);  // from its tiles at hand
  } else {
    query_slices_pyramid(s, pyramid_, q, &slices);
    query_counters(s, q, &buckets, &pyramid_.counters);
  }

  // Track ids go out in display order, as in the track list.
  const std::vector<uint32_t>& display_index = store_to_display_;
  Chars chars;
  std::vector<proto::NewString> fresh;
  if (strings_sent_.size() != s.strings.size()) strings_sent_.assign(s.strings.size(), 0);
  for (const VisibleSlice& v : slices) {
    if (strings_sent_[v.name]) continue;
    strings_sent_[v.name] = 1;
    std::string_view nm = s.strings.get(v.name);
    fresh.push_back({v.name, chars.add(nm), static_cast<uint32_t>(nm.size()), 0});
  }
  // Flow arrows with an end inside the requested range, when asked for (capped: beyond a few
  // thousand arrows a view is unreadable anyway).
  std::vector<proto::FlowEntry> flows;
  if (rq.flags & proto::kWantFlows) {
    const TimeNs t0 = q.origin + static_cast<TimeNs>(q.start),
                 t1 = q.origin + static_cast<TimeNs>(q.end);
    // A lazy bundle's from its flows tiles at hand: the same arrows, in the same order.
    if (bundle_)
      for (const BundleSession::Arrow& a : bundle_->view_flows(t0, t1))
        flows.push_back({static_cast<double>(a.flow.from_end - q.origin),
                         static_cast<double>(a.flow.to_start - q.origin),
                         display_index[a.from_track], a.from_depth, display_index[a.to_track],
                         a.to_depth, a.flow.from, a.flow.to});
    const FlowColumns& fc = s.flows;
    for (size_t i = 0; i < fc.size() && flows.size() < bundle::kMaxViewFlows; ++i) {
      uint32_t a = fc.from[i], b = fc.to[i];
      TimeNs ae = s.events.start[a] + s.events.dur[a], bs = s.events.start[b];
      if ((ae < t0 || ae > t1) && (bs < t0 || bs > t1)) continue;
      flows.push_back({static_cast<double>(ae - q.origin), static_cast<double>(bs - q.origin),
                       display_index[s.events.track[a]], s.events.depth[a],
                       display_index[s.events.track[b]], s.events.depth[b], a, b});
    }
  }
  put(&out, proto::Header{proto::MsgType::kViewReply, 0, generation_, rh.request_id});
  proto::ViewReplyHead head{};
  head.start = rq.start;
  head.end = rq.end;
  head.width_px = q.width_px;
  head.slice_count = static_cast<uint32_t>(slices.size());
  head.bucket_count = static_cast<uint32_t>(buckets.size());
  head.new_string_count = static_cast<uint32_t>(fresh.size());
  head.chars_bytes = static_cast<uint32_t>(chars.bytes.size());
  head.flow_count = static_cast<uint32_t>(flows.size());
  put(&out, head);
  out.reserve(out.size() + slices.size() * sizeof(proto::SliceEntry) +
              buckets.size() * sizeof(proto::BucketEntry) + fresh.size() * 16 + chars.bytes.size());
  for (const VisibleSlice& v : slices)
    put(&out, proto::SliceEntry{v.start, v.end, display_index[v.track], v.depth, v.name, v.event,
                                v.count, v.busy_permille});
  for (const CounterBucket& b : buckets)
    put(&out, proto::BucketEntry{b.start, b.min, b.max, b.last, b.series, 0});
  for (const proto::FlowEntry& f : flows) put(&out, f);
  for (const proto::NewString& f : fresh) put(&out, f);
  finish_message(&out, chars);
  return out;
}

std::string Engine::find_json(std::string_view text, size_t limit) const {
  if (bundle_) return bundle_find_json(false);
  const TraceStore& s = *store_;
  return find_reply_json(s, find_events(s, text, limit), {}, false, 0, {});
}

bool Engine::event_source(uint32_t event, uint64_t* offset, uint32_t* length) const {
  const TraceStore& s = *store_;
  if (event >= s.events.size()) return false;
  *offset = s.events.src_offset[event];
  *length = s.events.src_len[event];
  return *length > 0;
}

bool Engine::source_compressed() const {
  const TraceStore& s = *store_;
  return !s.files.empty() && s.files[0].compression != "none";
}

uint32_t Engine::source_file(uint64_t* offset) const {
  const auto& files = store_->files;
  uint32_t f = 0;
  while (f + 1 < files.size() && files[f + 1].stream_base <= *offset) ++f;
  if (f < files.size()) *offset -= files[f].stream_base;
  return f;
}

bool Engine::file_compressed(uint32_t file) const {
  const auto& files = store_->files;
  return file < files.size() && files[file].compression != "none";
}

static Compression compression_of(const SourceFile& f) { return compression_named(f.compression); }

std::string_view Engine::cached_record(uint32_t event) const {
  uint64_t off = 0;
  uint32_t len = 0;
  if (!event_source(event, &off, &len)) return {};
  if (source_file(&off) != extract_file_) return {};
  return extractor_.cached(off, len);
}

void Engine::extract_begin(uint32_t event) {
  uint64_t off = 0;
  uint32_t len = 0;
  if (!event_source(event, &off, &len)) return;
  extract_file_ = source_file(&off);
  if (extract_file_ >= store_->files.size()) return;
  extractor_.begin(compression_of(store_->files[extract_file_]), off, len);
}

std::string Engine::details_json(uint32_t event, std::string_view record) const {
  if (bundle_) return bundle_details_json(event, record);
  if (event >= store_->events.size()) return "null";
  return details_on(*store_, event, record, nullptr);
}

std::string Engine::details_on(const TraceStore& s, uint32_t event, std::string_view record,
                               const PartialStore* p) const {
  namespace det = protocol::keys::details;
  const std::function<uint32_t(uint32_t)> ids = p ? p->ids() : nullptr;
  const EventJsonContext ctx{0, &store_to_display_, p ? &ids : nullptr};
  std::string o = "{";
  append_event_fields(
      &o, s, event,
      {EventField::kEvent, EventField::kName, EventField::kCat, EventField::kPhase,
       EventField::kStartNs, EventField::kDurNs, EventField::kDepth, EventField::kPid,
       EventField::kTid, EventField::kProcess, EventField::kThread},
      ctx);
  // Self time and the stack around the event (parent, children), for the details pane.
  if (s.events.phase[event] != 'i') {
    protocol::append_key(&o, det::kSelfNs);
    json_append_int(&o, self_time(s, event));
  }
  // `placed`: also the display track it is drawn on (events elsewhere: flows, launches).
  auto related = [&](uint32_t e, bool placed = false) {
    std::string r = "{";
    if (placed)
      append_event_fields(&r, s, e,
                          {EventField::kEvent, EventField::kName, EventField::kStartNs,
                           EventField::kDurNs, EventField::kTrack},
                          ctx);
    else
      append_event_fields(
          &r, s, e,
          {EventField::kEvent, EventField::kName, EventField::kStartNs, EventField::kDurNs}, ctx);
    return r + "}";
  };
  uint32_t parent = parent_of(s, event);
  protocol::append_key(&o, det::kParent);
  o += (parent == kNone ? std::string("null") : related(parent));
  uint64_t child_count = 0;
  std::vector<uint32_t> kids = children_of(s, event, 20, &child_count);
  protocol::append_key(&o, det::kChildCount);
  o += std::to_string(child_count);
  protocol::append_key(&o, det::kChildren);
  o += '[';
  for (size_t i = 0; i < kids.size(); ++i) o += (i ? "," : "") + related(kids[i]);
  o += "]";
  // Flow neighbours (arrows in and out), with where they are drawn.
  o += ',';
  append_event_fields(&o, s, event, {EventField::kTrack}, ctx);
  protocol::append_key(&o, det::kFlows);
  o += '[';
  std::vector<FlowNeighbour> nb = flows_of(s, event);
  for (size_t i = 0; i < nb.size() && i < 100; ++i) {
    uint32_t e = nb[i].event;
    std::string r = related(e, true);
    r.pop_back();  // reopen the object to add direction and depth
    protocol::append_key(&r, det::kIncoming);
    r += nb[i].incoming ? "true" : "false";
    protocol::append_key(&r, protocol::keys::event::kDepth);
    r += std::to_string(s.events.depth[e]) + "}";
    o += (i ? "," : "") + r;
  }
  o += "]";
  // What it launched elsewhere (Kineto: its kernels and copies), through it and its children.
  if (s.events.phase[event] != 'i') {
    const Launched l = launched_by(s, event, 20);
    protocol::append_key(&o, det::kLaunchedCount);
    o += std::to_string(l.count);
    protocol::append_key(&o, det::kLaunchedTotalNs);
    json_append_int(&o, l.total_ns);
    protocol::append_key(&o, det::kLaunchedComplete);
    o += l.complete ? "true" : "false";
    protocol::append_key(&o, det::kLaunchedSpanNs);
    json_append_int(&o, l.count ? l.last_end - l.first_start : 0);
    protocol::append_key(&o, det::kLaunched);
    o += '[';
    for (size_t i = 0; i < l.events.size(); ++i) o += (i ? "," : "") + related(l.events[i], true);
    o += "]";
  }
  protocol::append_key(&o, det::kRecord);
  // The record was valid JSON when it was imported (malformed ones are skipped), but the file
  // may have changed on disk since: the reader validates before trusting it.
  if (record.empty())
    o += "null";
  else if (s.xspace)  // xplane: the record is the event's XEvent bytes, decoded here
    o += xplane_record_json(s, event, record);
  else if (s.perfetto)  // Perfetto: the event's TrackEvent bytes
    o += perfetto_record_json(s, event, record);
  else
    o += record;
  o += '}';
  return o;
}

int64_t Engine::locate(std::string_view name, double start, std::string_view pid,
                       std::string_view tid) const {
  // `start` comes from JavaScript as a double: epoch-scale ns (~1.7e18) are only exact to a few
  // hundred ns there, so take the closest event within that rounding.
  const TraceStore& s = *store_;
  StrId id = s.strings.find(name);
  if (id == kNone) return -1;
  const double tol = std::max(1.0, std::fabs(start) * 4e-16);
  if (bundle_)  // the events tiles at hand (a search's or a view's)
    return bundle_->locate(id, start, tol, [&](uint32_t track) {
      const Track& t = s.tracks[track];
      return (pid.empty() || s.processes[t.process].key == pid) && (tid.empty() || t.key == tid);
    });
  int64_t best = -1;
  double best_d = tol;
  for (uint32_t e = 0; e < s.events.size(); ++e) {
    if (s.events.name[e] != id) continue;
    double d = std::fabs(static_cast<double>(s.events.start[e]) - start);
    if (d > best_d) continue;
    const Track& t = s.tracks[s.events.track[e]];
    if ((pid.empty() || s.processes[t.process].key == pid) && (tid.empty() || t.key == tid)) {
      best = e;
      best_d = d;
    }
  }
  return best;
}

}  // namespace strata
