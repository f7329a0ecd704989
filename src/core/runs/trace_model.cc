#include "core/runs/trace_model.h"

#include <algorithm>
#include <cstdlib>
#include <unordered_map>

#include "core/query/hierarchy.h"
#include "core/runs/runs_util.h"

namespace strata::runs {
namespace {

Role role_of_category(std::string_view cat) {
  if (iequals(cat, "cpu_op") || iequals(cat, "Operator")) return Role::kOperator;
  if (iequals(cat, "cuda_runtime") || iequals(cat, "Runtime") || iequals(cat, "cuda_driver"))
    return Role::kRuntime;
  if (iequals(cat, "kernel")) return Role::kKernel;
  if (iequals(cat, "gpu_memcpy") || iequals(cat, "gpu_memset") || iequals(cat, "Memcpy") ||
      iequals(cat, "Memset"))
    return Role::kMemory;
  return Role::kOther;
}

bool is_slice_phase(char ph) { return ph == 'X' || ph == 'B'; }

// Parses the integer after `"key":` in a record; false when absent.
bool int_arg(std::string_view record, std::string_view key, int64_t* v) {
  std::string_view raw = raw_arg(record, key);
  if (raw.empty()) return false;
  std::string tmp(raw);
  char* end = nullptr;
  long long x = std::strtoll(tmp.c_str(), &end, 10);
  if (end == tmp.c_str()) return false;
  *v = x;
  return true;
}

}  // namespace

std::string_view record_text(const TraceStore& s, std::string_view source, uint32_t event) {
  uint64_t off = s.events.src_offset[event];
  uint32_t len = s.events.src_len[event];
  if (len == 0 || off >= source.size() || source.size() - off < len) return {};
  return source.substr(off, len);
}

std::string_view raw_arg(std::string_view rec, std::string_view key) {
  // Looks for the quoted key followed by ':'; values are then cut by bracket matching that
  // skips strings. Good enough for the flat args Kineto writes; not a general JSON path.
  size_t pos = 0;
  while (true) {
    pos = rec.find(key, pos);
    if (pos == std::string_view::npos) return {};
    size_t k = pos + key.size();
    if (pos == 0 || rec[pos - 1] != '"' || k >= rec.size() || rec[k] != '"') {
      pos = k;
      continue;
    }
    ++k;
    while (k < rec.size() && (rec[k] == ' ' || rec[k] == '\t' || rec[k] == '\n' || rec[k] == '\r'))
      ++k;
    if (k >= rec.size() || rec[k] != ':') {
      pos = k;
      continue;
    }
    ++k;
    while (k < rec.size() && (rec[k] == ' ' || rec[k] == '\t' || rec[k] == '\n' || rec[k] == '\r'))
      ++k;
    if (k >= rec.size()) return {};
    size_t b = k;
    if (rec[k] == '"') {
      for (++k; k < rec.size() && rec[k] != '"'; ++k)
        if (rec[k] == '\\') ++k;
      return rec.substr(b, std::min(rec.size(), k + 1) - b);
    }
    if (rec[k] == '[' || rec[k] == '{') {
      int level = 0;
      for (; k < rec.size(); ++k) {
        char c = rec[k];
        if (c == '"') {
          for (++k; k < rec.size() && rec[k] != '"'; ++k)
            if (rec[k] == '\\') ++k;
        } else if (c == '[' || c == '{') {
          ++level;
        } else if (c == ']' || c == '}') {
          if (--level == 0) return rec.substr(b, k + 1 - b);
        }
      }
      return {};
    }
    while (k < rec.size() && rec[k] != ',' && rec[k] != '}' && rec[k] != ' ' && rec[k] != '\n') ++k;
    return rec.substr(b, k - b);
  }
}

TraceModel build_trace_model(const TraceStore& s, const RecordLookup& record) {
  const EventColumns& ev = s.events;
  const size_t n = ev.size();
  TraceModel m;
  m.role.assign(n, Role::kOther);
  m.op_anc.assign(n, kNone);
  m.launcher.assign(n, kNone);

  std::unordered_map<StrId, Role> by_cat;
  for (size_t i = 0; i < n; ++i) {
    if (!is_slice_phase(ev.phase[i])) continue;
    if (s.tracks[ev.track[i]].kind != TrackKind::kThread) continue;
    std::string_view name = s.strings.get(ev.name[i]);
    // ProfilerStep#N is a user_annotation (or an "Operator" in 2021 traces): a step, never an
    // operator row, as tb_plugin's ProfilerStepNode and torch_npu's is_profiler_step().
    // (Kineto also copies the step onto the GPU streams as gpu_user_annotation: not a step.)
    if (name.substr(0, 13) == "ProfilerStep#" &&
        !iequals(s.strings.get(ev.cat[i]), "gpu_user_annotation")) {
      m.role[i] = Role::kStep;
      m.steps.push_back(uint32_t(i));
      continue;
    }
    auto it = by_cat.find(ev.cat[i]);
    if (it == by_cat.end())
      it = by_cat.emplace(ev.cat[i], role_of_category(s.strings.get(ev.cat[i]))).first;
    m.role[i] = it->second;
  }
  std::sort(m.steps.begin(), m.steps.end(),
            [&](uint32_t a, uint32_t b) { return ev.start[a] < ev.start[b]; });

  // Events of a track are stored row by row, shallow rows first, so a parent's op_anc is set
  // before its children are visited. Slices that are not operators (python_function, other
  // user_annotations) pass their own nearest operator down, so an operator under them is still
  // a child of the operator above, as in tb_plugin's op tree (which holds operators only).
  for (uint32_t t = 0; t < s.tracks.size(); ++t) {
    const Track& tr = s.tracks[t];
    if (tr.kind != TrackKind::kThread) continue;
    for (uint32_t i = tr.first_event; i < tr.first_event + tr.event_count; ++i) {
      if (ev.depth[i] == 0) continue;
      uint32_t p = parent_of(s, i);
      if (p == kNone) continue;
      m.op_anc[i] = m.role[p] == Role::kOperator ? p : m.op_anc[p];
    }
  }

  const FlowColumns& f = s.flows;
  for (size_t e = 0; e < f.size(); ++e) {
    uint32_t from = f.from[e], to = f.to[e];
    if (from >= n || to >= n) continue;
    if (m.role[from] == Role::kRuntime && is_device(role_of_category(s.strings.get(ev.cat[to])))) {
      m.launcher[to] = from;
      m.has_flows = true;
    }
  }
  // Device events (on their own stream tracks) get their role here: they were skipped above
  // only when not on a thread track, which Kineto's "stream N" tracks are.
  for (size_t i = 0; i < n; ++i) {
    if (m.role[i] != Role::kOther || !is_slice_phase(ev.phase[i])) continue;
    Role r = role_of_category(s.strings.get(ev.cat[i]));
    if (is_device(r)) m.role[i] = r;
  }
  if (record) {
    std::unordered_map<int64_t, uint32_t> by_corr;
    bool need = false;
    for (size_t i = 0; i < n && !need; ++i) need = is_device(m.role[i]) && m.launcher[i] == kNone;
    if (need) {
      for (size_t i = 0; i < n; ++i) {
        if (m.role[i] != Role::kRuntime) continue;
        int64_t c;
        if (int_arg(record(uint32_t(i)), "correlation", &c)) by_corr[c] = uint32_t(i);
      }
      for (size_t i = 0; i < n; ++i) {
        if (!is_device(m.role[i]) || m.launcher[i] != kNone) continue;
        int64_t c;
        if (!int_arg(record(uint32_t(i)), "correlation", &c)) continue;
        auto it = by_corr.find(c);
        if (it != by_corr.end()) m.launcher[i] = it->second;
      }
    }
  }
  for (size_t i = 0; i < n; ++i)
    if (is_device(m.role[i]) && m.launcher[i] == kNone) ++m.unpaired_device;
  return m;
}

std::string_view step_at(const TraceStore& s, const TraceModel& m, TimeNs t) {
  const EventColumns& ev = s.events;
  auto it = std::upper_bound(m.steps.begin(), m.steps.end(), t,
                             [&](TimeNs x, uint32_t e) { return x < ev.start[e]; });
  if (it == m.steps.begin()) return {};
  uint32_t e = *(it - 1);
  if (t > ev.start[e] + ev.dur[e]) return {};
  std::string_view name = s.strings.get(ev.name[e]);
  return name.substr(13);
}

}  // namespace strata::runs
