#include "core/formats/perfetto/perfetto_sniff.h"

#include "core/formats/protobuf/wire.h"

namespace strata::perfetto {

namespace {

// Decides on the fields of one message's bytes (possibly cut by the end of the head):
// 1 = Perfetto, -1 = XPlane, 0 = cannot tell.
int judge_packet(const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  while (r.next(&f) == wire::Status::kOk) {
    if (f.number > 6) return 1;
    if (f.number == 1) return f.type == wire::kLen ? 1 : -1;     // ftrace events vs XPlane.id
    if (f.number == 3) return f.type == wire::kVarint ? 1 : -1;  // trusted_uid vs lines
  }
  // The head may end inside the message: read what is there field by field.
  const uint8_t* q = r.field_start ? r.field_start : p;
  uint64_t tag;
  if (wire::read_varint(q, p + n, &tag) && (tag >> 3) > 6 && (tag >> 3) < 0x20000000) return 1;
  return 0;
}

struct Kind {
  uint32_t field;
  const char* one;
  const char* many;
};

// Packet kinds worth naming; trace config, stats, sync markers and the like are metadata.
constexpr Kind kKinds[] = {
    {1, "ftrace event bundle", "ftrace event bundles"},
    {2, "process tree", "process trees"},
    {5, "Chrome JSON event bundle", "Chrome JSON event bundles"},
    {7, "system stats sample", "system stats samples"},
    {9, "process stats sample", "process stats samples"},
    {37, "heap profile packet", "heap profile packets"},
    {38, "battery counter sample", "battery counter samples"},
    {39, "Android log bundle", "Android log bundles"},
    {40, "power rail sample", "power rail samples"},
    {50, "compressed packet bundle", "compressed packet bundles"},
    {52, "GPU counter event", "GPU counter events"},
    {53, "GPU render stage event", "GPU render stage events"},
    {54, "streaming CPU profile packet", "streaming CPU profile packets"},
    {57, "graphics frame event", "graphics frame events"},
    {66, "perf sample", "perf samples"},
    {84, "statsd atom", "statsd atoms"},
    {95, "ETW event bundle", "ETW event bundles"},
    {133, "compressed packet bundle (zstd)", "compressed packet bundles (zstd)"},
};

}  // namespace

bool looks_like_perfetto(const uint8_t* p, size_t n) {
  wire::Reader r(p, n);
  wire::Field f;
  for (int k = 0; k < 64; ++k) {
    const uint8_t* start = r.p;
    const wire::Status st = r.next(&f);
    if (st == wire::Status::kOk) {
      if (f.number != 1 || f.type != wire::kLen) return false;  // XSpace: errors, hostnames
      const int v = judge_packet(f.data, f.size);
      if (v != 0) return v > 0;
      continue;
    }
    if (st == wire::Status::kTruncated) {
      // The head ends inside this packet: judge the part of it that is here.
      const uint8_t* q = start;
      uint64_t tag, len;
      if (!wire::read_varint(q, p + n, &tag) || tag != 0x0A) return false;
      if (!wire::read_varint(q, p + n, &len)) return false;
      return judge_packet(q, static_cast<size_t>(p + n - q)) > 0;
    }
    return false;
  }
  return false;
}

std::string undrawn_list(const std::map<uint32_t, uint64_t>& undrawn) {
  std::string out;
  for (const Kind& k : kKinds) {
    auto it = undrawn.find(k.field);
    if (it == undrawn.end()) continue;
    if (!out.empty()) out += ", ";
    out += std::to_string(it->second) + " " + (it->second == 1 ? k.one : k.many);
  }
  return out;
}

std::string describe_undrawn(uint64_t packets, const std::map<uint32_t, uint64_t>& undrawn) {
  std::string held = undrawn_list(undrawn);
  std::string o = "this Perfetto trace has " + std::to_string(packets) +
                  (packets == 1 ? " packet" : " packets") + " but no TrackEvent";
  if (!held.empty()) o += ": it holds " + held;
  o += ". Strata draws a Perfetto trace's TrackEvents (slices, instants, counters and flows, "
       "as the Perfetto SDK, Chrome and tracing-perfetto write them); open system traces "
       "(ftrace, process and system stats, atoms) in ui.perfetto.dev";
  return o;
}

}  // namespace strata::perfetto
