// Helpers for the xplane tests: write XSpaces with the protoc-generated classes (an encoder
// independent of the importer's hand-written wire reader), load bytes through the Engine as the
// worker does, and read an event's details the way the worker re-reads its record.
#pragma once
#include <gtest/gtest.h>

#include <cstring>
#include <map>
#include <string>

#include "engine/engine.h"
#include "engine_test_util.h"
#include "import_test_util.h"
#include "xplane.pb.h"

namespace strata::testing {

namespace pb = tensorflow::profiler;

// The real xplanes in ../shared/data whose metadata plane holds HloProtos (TraceLens' JAX runs).
inline constexpr const char* kWithHlo[] = {
    "xplane/tracelens/jax08_gemm/tw003.xplane.pb",
    "xplane/tracelens/jax_conv_minimal_08/tw003.xplane.pb",
    "xplane/tracelens/jax_conv_minimal_legacy/chi-mi300x-013.ord.vultr.cpe.ice.amd.com.xplane.pb",
    "xplane/tracelens/jax_te_fused_attn/934987a2fc2f.xplane.pb",
};

inline const uint8_t* u8(const std::string& s) {
  return reinterpret_cast<const uint8_t*>(s.data());
}

// Builds one plane: metadata ids are handed out by name, as XProf's XPlaneBuilder does.
class PlaneWriter {
 public:
  PlaneWriter(pb::XSpace* space, const std::string& name, int64_t id = 0)
      : p_(space->add_planes()) {
    p_->set_name(name);
    if (id) p_->set_id(id);
  }
  pb::XPlane* plane() { return p_; }

  int64_t stat_id(const std::string& name) {
    auto it = stats_.find(name);
    if (it != stats_.end()) return it->second;
    int64_t id = static_cast<int64_t>(stats_.size()) + 1;
    stats_[name] = id;
    pb::XStatMetadata& m = (*p_->mutable_stat_metadata())[id];
    m.set_id(id);
    m.set_name(name);
    return id;
  }
  pb::XEventMetadata* meta(const std::string& name, const std::string& display = "") {
    auto it = metas_.find(name);
    if (it != metas_.end()) {
      pb::XEventMetadata* m = &(*p_->mutable_event_metadata())[it->second];
      if (!display.empty()) m->set_display_name(display);
      return m;
    }
    int64_t id = static_cast<int64_t>(metas_.size()) + 1;
    metas_[name] = id;
    pb::XEventMetadata& m = (*p_->mutable_event_metadata())[id];
    m.set_id(id);
    m.set_name(name);
    if (!display.empty()) m.set_display_name(display);
    return &m;
  }
  pb::XLine* line(int64_t id, const std::string& name, int64_t timestamp_ns) {
    pb::XLine* l = p_->add_lines();
    l->set_id(id);
    l->set_name(name);
    l->set_timestamp_ns(timestamp_ns);
    return l;
  }
  pb::XEvent* event(pb::XLine* l, const std::string& name, int64_t offset_ps, int64_t duration_ps) {
    pb::XEvent* e = l->add_events();
    e->set_metadata_id(meta(name)->id());
    e->set_offset_ps(offset_ps);
    e->set_duration_ps(duration_ps);
    return e;
  }
  // Stats on an event or on event metadata (anything with add_stats()).
  template <class M>
  pb::XStat* stat(M* m, const std::string& name) {
    pb::XStat* s = m->add_stats();
    s->set_metadata_id(stat_id(name));
    return s;
  }
  template <class M>
  void stat_int(M* m, const std::string& name, int64_t v) {
    stat(m, name)->set_int64_value(v);
  }
  template <class M>
  void stat_uint(M* m, const std::string& name, uint64_t v) {
    stat(m, name)->set_uint64_value(v);
  }
  template <class M>
  void stat_str(M* m, const std::string& name, const std::string& v) {
    stat(m, name)->set_str_value(v);
  }
  // A ref stat: the value is the name of a stat metadata (XProf interns repeated strings so).
  template <class M>
  void stat_ref(M* m, const std::string& name, const std::string& v) {
    pb::XStat* s = stat(m, name);
    s->set_ref_value(static_cast<uint64_t>(stat_id(v)));
  }

 private:
  pb::XPlane* p_;
  std::map<std::string, int64_t> stats_, metas_;
};

inline std::string serialize(const pb::XSpace& space) {
  std::string out;
  EXPECT_TRUE(space.SerializeToString(&out));
  return out;
}

// Loads `bytes` through the Engine in chunks of `chunk` bytes, as the engine worker (web/worker/)
// does.
inline bool engine_load(Engine* e, const std::string& bytes, size_t chunk = 1 << 16,
                        const std::string& name = "t.xplane.pb") {
  return load_trace(e, name, bytes, chunk);
}

// The details JSON of `event`, its record re-read from the (uncompressed) file bytes.
inline std::string details_of(const Engine& e, uint32_t event, const std::string& file) {
  uint64_t off = 0;
  uint32_t len = 0;
  std::string_view record;
  if (e.event_source(event, &off, &len) && off + len <= file.size())
    record = std::string_view(file).substr(off, len);
  return e.details_json(event, record);
}

// Index of the first event named `name` on a track named `track` (any track when empty), or -1.
inline int64_t find_on_track(const TraceStore& s, const std::string& track,
                             const std::string& name) {
  for (size_t i = 0; i < s.events.size(); ++i) {
    if (s.strings.get(s.events.name[i]) != name) continue;
    if (!track.empty() && s.strings.get(s.tracks[s.events.track[i]].name) != track) continue;
    return static_cast<int64_t>(i);
  }
  return -1;
}

// The track named `name` in the process named `process`, or -1.
inline int64_t find_track(const TraceStore& s, const std::string& process,
                          const std::string& name) {
  for (size_t t = 0; t < s.tracks.size(); ++t)
    if (s.strings.get(s.tracks[t].name) == name &&
        s.strings.get(s.processes[s.tracks[t].process].name) == process)
      return static_cast<int64_t>(t);
  return -1;
}

}  // namespace strata::testing
