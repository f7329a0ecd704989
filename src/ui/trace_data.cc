#include "ui/trace_data.h"

#include <cstring>

#include "core/base/byte_reader.h"
#include "ui/timeline/colors.h"

namespace strata {

namespace {

// A name from the message's character table; out of range clears r.ok.
std::string text(ByteReader& r, const uint8_t* chars, size_t chars_n, uint32_t off, uint32_t len) {
  if (uint64_t(off) + len > chars_n) {
    r.ok = false;
    return {};
  }
  return std::string(reinterpret_cast<const char*>(chars) + off, len);
}

bool apply_track_list(TraceData* d, ByteReader& r, const proto::Header& h) {
  auto head = r.get<proto::TrackListHead>();
  if (!r.ok || head.track_count > (1u << 24) || head.process_count > (1u << 24)) return false;
  std::vector<proto::ProcessEntry> pe(head.process_count);
  std::vector<proto::TrackEntry> te(head.track_count);
  std::vector<proto::SeriesEntry> se(head.series_count);
  for (auto& e : pe) e = r.get<proto::ProcessEntry>();
  for (auto& e : te) e = r.get<proto::TrackEntry>();
  for (auto& e : se) e = r.get<proto::SeriesEntry>();
  if (!r.ok || r.at + head.chars_bytes > r.n) return false;
  const uint8_t* chars = r.p + r.at;
  TraceData nd;
  nd.loaded = true;
  nd.generation = h.generation;
  nd.origin_ns = head.origin_ns;
  nd.extent_ns = head.extent_ns;
  for (auto& e : pe)
    nd.processes.push_back({e.pid, text(r, chars, head.chars_bytes, e.name_off, e.name_len),
                            e.first_track, e.track_count,
                            text(r, chars, head.chars_bytes, e.labels_off, e.labels_len),
                            text(r, chars, head.chars_bytes, e.key_off, e.key_len)});
  for (auto& e : te)
    nd.tracks.push_back({e.tid, e.process, e.kind,
                         text(r, chars, head.chars_bytes, e.name_off, e.name_len), e.rows,
                         e.event_count, e.first_series, e.series_count});
  for (auto& e : se)
    nd.series.push_back({e.min, e.max, e.track,
                         text(r, chars, head.chars_bytes, e.name_off, e.name_len),
                         (e.flags & proto::kSeriesInBytes) != 0});
  if (!r.ok) return false;
  nd.names.resize(head.string_count);
  nd.name_colors.assign(head.string_count, 0);
  *d = std::move(nd);
  return true;
}

bool apply_view_reply(TraceData* d, ByteReader& r, const proto::Header& h) {
  auto head = r.get<proto::ViewReplyHead>();
  if (!r.ok) return false;
  ViewReply v;
  v.valid = true;
  v.request_id = h.request_id;
  v.start = head.start;
  v.end = head.end;
  v.width_px = head.width_px;
  size_t need = size_t(head.slice_count) * sizeof(proto::SliceEntry) +
                size_t(head.bucket_count) * sizeof(proto::BucketEntry) +
                size_t(head.flow_count) * sizeof(proto::FlowEntry) +
                size_t(head.new_string_count) * sizeof(proto::NewString) + head.chars_bytes;
  if (r.at + need > r.n) return false;
  // Copies n entries (memcpy with an empty vector's null data() is undefined, hence the guard).
  auto take = [&r](auto* vec, uint32_t n) {
    vec->resize(n);
    const size_t bytes = size_t(n) * sizeof((*vec)[0]);
    if (bytes) std::memcpy(vec->data(), r.p + r.at, bytes);
    r.at += bytes;
  };
  take(&v.slices, head.slice_count);
  take(&v.buckets, head.bucket_count);
  take(&v.flows, head.flow_count);
  std::vector<proto::NewString> fresh(head.new_string_count);
  for (auto& f : fresh) f = r.get<proto::NewString>();
  const uint8_t* chars = r.p + r.at;
  for (auto& f : fresh) {
    if (f.id >= d->names.size()) return false;
    d->names[f.id] = text(r, chars, head.chars_bytes, f.off, f.len);
    d->name_colors[f.id] = color_for_name(d->names[f.id]);
    ++d->names_received;
  }
  // Reject references the UI cannot resolve rather than index out of bounds while drawing.
  for (const auto& s : v.slices)
    if (s.track >= d->tracks.size() || s.name >= d->names.size()) return false;
  for (const auto& b : v.buckets)
    if (b.series >= d->series.size()) return false;
  for (const auto& f : v.flows)
    if (f.from_track >= d->tracks.size() || f.to_track >= d->tracks.size()) return false;
  if (!r.ok) return false;
  if (h.request_id != 0 && h.request_id == d->overview_request)
    d->overview = std::move(v);
  else
    d->reply = std::move(v);
  return true;
}

}  // namespace

bool TraceData::apply(const uint8_t* data, size_t n) {
  ByteReader r{data, n};
  auto h = r.get<proto::Header>();
  if (!r.ok || h.size > n) return false;
  r.n = h.size;
  if (h.type == proto::MsgType::kTrackList) return apply_track_list(this, r, h);
  if (h.type == proto::MsgType::kViewReply) {
    if (!loaded || h.generation != generation) return false;  // stale: from the previous trace
    return apply_view_reply(this, r, h);
  }
  return false;
}

const std::string& TraceData::name(uint32_t id) const {
  static const std::string kEmpty;
  return id < names.size() ? names[id] : kEmpty;
}

}  // namespace strata
