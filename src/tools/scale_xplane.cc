// strata_scale_xplane <in.xplane.pb> <out.xplane.pb> <target MB>
//
// Makes a large XSpace from a real one for the ingest benchmark (scripts/bench-xplane): every
// line's events are repeated k times, each copy shifted by the whole profile's span, so the
// planes, lines, metadata and stats stay those of the real profile and only the event count
// grows. Written plane by plane (each plane serialized on its own with its field-1 header) so
// memory stays about one scaled plane. Uses the protoc-generated classes (native only).
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

#include "core/formats/protobuf/wire.h"
#include "xplane.pb.h"

namespace pb = tensorflow::profiler;

int main(int argc, char** argv) {
  if (argc != 4) {
    std::fprintf(stderr, "usage: %s <in.xplane.pb> <out.xplane.pb> <target MB>\n", argv[0]);
    return 2;
  }
  std::ifstream in(argv[1], std::ios::binary);
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string bytes = buf.str();
  pb::XSpace space;
  if (!space.ParseFromString(bytes)) {
    std::fprintf(stderr, "%s: not an XSpace\n", argv[1]);
    return 1;
  }
  // Only the events repeat: the number of copies that brings the file closest to the target.
  double event_bytes = 0;
  for (const pb::XPlane& p : space.planes())
    for (const pb::XLine& l : p.lines())
      for (const pb::XEvent& e : l.events())
        event_bytes += static_cast<double>(e.ByteSizeLong()) + 3;  // + tag and length
  const double target = std::atof(argv[3]) * 1e6;
  const double other = static_cast<double>(bytes.size()) - event_bytes;
  const int copies =
      event_bytes > 0 ? std::max(1, static_cast<int>((target - other) / event_bytes + 0.5)) : 1;

  // The profile's span in absolute ps: each copy starts after the previous one ends.
  long double lo = 0, hi = 0;
  bool any = false;
  for (const pb::XPlane& p : space.planes())
    for (const pb::XLine& l : p.lines())
      for (const pb::XEvent& e : l.events()) {
        long double s = static_cast<long double>(l.timestamp_ns()) * 1000 + e.offset_ps();
        long double t = s + e.duration_ps();
        lo = any ? std::min(lo, s) : s;
        hi = any ? std::max(hi, t) : t;
        any = true;
      }
  const int64_t period = static_cast<int64_t>(hi - lo) + 1000000;  // + 1 µs

  std::ofstream out(argv[2], std::ios::binary);
  uint64_t events = 0;
  for (const pb::XPlane& src : space.planes()) {
    pb::XPlane plane = src;
    for (pb::XLine& l : *plane.mutable_lines()) {
      const int n = l.events_size();
      l.mutable_events()->Reserve(n * copies);
      for (int k = 1; k < copies; ++k)
        for (int i = 0; i < n; ++i) {
          pb::XEvent* e = l.add_events();
          *e = l.events(i);
          if (e->data_case() == pb::XEvent::kOffsetPs)
            e->set_offset_ps(e->offset_ps() + static_cast<int64_t>(k) * period);
        }
      events += static_cast<uint64_t>(l.events_size());
    }
    std::string body = plane.SerializeAsString();
    std::string head(1, '\x0A');
    strata::wire::append_varint(&head, body.size());
    out.write(head.data(), static_cast<std::streamsize>(head.size()));
    out.write(body.data(), static_cast<std::streamsize>(body.size()));
  }
  pb::XSpace tail;  // errors, warnings, hostnames: once
  tail.mutable_errors()->CopyFrom(space.errors());
  tail.mutable_warnings()->CopyFrom(space.warnings());
  tail.mutable_hostnames()->CopyFrom(space.hostnames());
  std::string t = tail.SerializeAsString();
  out.write(t.data(), static_cast<std::streamsize>(t.size()));
  out.close();
  std::printf("{\"copies\":%d,\"events\":%llu}\n", copies, static_cast<unsigned long long>(events));
  return 0;
}
