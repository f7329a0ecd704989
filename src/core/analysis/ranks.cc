#include "core/analysis/ranks.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <map>
#include <tuple>

#include "core/base/text.h"

namespace strata {

namespace {

bool has(std::string_view s, std::string_view part) {
  return s.find(part) != std::string_view::npos;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  const size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

}  // namespace

uint32_t rank_of_process(const TraceStore& s, uint32_t process) {
  return process < s.processes.size() ? s.processes[process].file : 0;
}

std::string rank_name(const TraceStore& s, uint32_t file) {
  if (file >= s.files.size()) return "rank ?";
  const SourceFile& f = s.files[file];
  if (f.rank >= 0) return "rank " + std::to_string(f.rank);
  if (!f.group.empty()) return f.group;
  return f.name.empty() ? "file " + std::to_string(file + 1) : f.name;
}

double dtype_bytes(std::string_view dtype) {
  std::string d = ascii_lower(dtype);
  if (d.rfind("c10::", 0) == 0) d = d.substr(5);
  if (d.rfind("torch.", 0) == 0) d = d.substr(6);
  if (d == "double" || d == "float64" || d == "long" || d == "int64" || d == "complexfloat")
    return 8;
  if (d == "float" || d == "float32" || d == "int" || d == "int32" || d == "uint32") return 4;
  if (d == "half" || d == "float16" || d == "bfloat16" || d == "short" || d == "int16") return 2;
  if (d == "byte" || d == "char" || d == "bool" || d == "int8" || d == "uint8" ||
      d.rfind("float8", 0) == 0)
    return 1;
  return 0;
}

double busbw_factor(std::string_view collective, int64_t n) {
  if (n <= 0) return 0;
  const std::string c = ascii_lower(collective);
  const double k = static_cast<double>(n);
  if (has(c, "allreduce") || has(c, "all_reduce")) return 2 * (k - 1) / k;
  if (has(c, "allgather") || has(c, "all_gather") || has(c, "reducescatter") ||
      has(c, "reduce_scatter") || has(c, "alltoall") || has(c, "all_to_all"))
    return (k - 1) / k;
  if (has(c, "broadcast") || has(c, "reduce") || has(c, "send") || has(c, "recv") ||
      has(c, "gather") || has(c, "scatter"))
    return 1;
  return 0;
}

RankAnalysis analyse_ranks(const TraceStore& s, const GpuWorkSet& w) {
  RankAnalysis a;
  const uint32_t files = std::max<uint32_t>(1, static_cast<uint32_t>(s.files.size()));
  std::vector<int32_t> index_of_file(files, -1);
  std::vector<std::vector<uint32_t>> events_of(files);
  for (uint32_t d = 0; d < w.devices.size(); ++d) {
    const uint32_t f = std::min(rank_of_process(s, w.devices[d].process), files - 1);
    if (index_of_file[f] < 0) {
      index_of_file[f] = static_cast<int32_t>(a.ranks.size());
      a.ranks.push_back(RankTime{f, {}, {}});
    }
    a.ranks[static_cast<size_t>(index_of_file[f])].devices.push_back(d);
    for (const GpuStream& st : w.devices[d].streams)
      events_of[f].insert(events_of[f].end(), st.events.begin(), st.events.end());
  }
  std::sort(a.ranks.begin(), a.ranks.end(),
            [](const RankTime& x, const RankTime& y) { return x.file < y.file; });
  for (size_t r = 0; r < a.ranks.size(); ++r) {
    index_of_file[a.ranks[r].file] = static_cast<int32_t>(r);
    a.ranks[r].time = gpu_breakdown(s, w, events_of[a.ranks[r].file]);
  }
  const size_t n = a.ranks.size();

  // Collectives: each rank's communication events, keyed by (group, name, seq) when the file
  // numbers them, else by (group, name, k-th occurrence on that rank).
  using Key = std::tuple<std::string, std::string, int64_t>;
  std::map<Key, size_t> found;
  std::vector<std::map<std::pair<std::string, std::string>, uint64_t>> seen(n);
  for (size_t r = 0; r < n; ++r) {
    std::vector<uint32_t> comm;
    for (uint32_t e : events_of[a.ranks[r].file])
      if (w.work_of[e] == GpuWork::kComm) comm.push_back(e);
    std::sort(comm.begin(), comm.end(), [&](uint32_t x, uint32_t y) {
      return s.events.start[x] != s.events.start[y] ? s.events.start[x] < s.events.start[y] : x < y;
    });
    for (uint32_t e : comm) {
      const CollectiveArgs* c = s.collectives.find(s.events.src_offset[e]);
      std::string name = c && !c->collective.empty() ? c->collective
                                                     : std::string(s.strings.get(s.events.name[e]));
      std::string group = c ? c->process_group : std::string();
      const uint64_t k = seen[r][{group, name}]++;
      const bool by_seq = c && c->seq >= 0;
      a.matched_by_seq |= by_seq;
      Key key{group, name, by_seq ? c->seq : -1 - static_cast<int64_t>(k)};
      auto it = found.find(key);
      if (it == found.end()) {
        MatchedCollective m;
        m.name = name;
        m.process_group = group;
        m.seq = by_seq ? c->seq : -1;
        m.occurrence = k;
        m.event.assign(n, kNone);
        it = found.emplace(key, a.collectives.size()).first;
        a.collectives.push_back(std::move(m));
      }
      MatchedCollective& m = a.collectives[it->second];
      if (m.event[r] == kNone) {
        m.event[r] = e;
        ++m.ranks_present;
      }
    }
  }
  std::vector<RankStraggler> st(n);
  for (MatchedCollective& m : a.collectives) {
    TimeNs first = 0, last = 0, lat = 0;
    bool any = false;
    for (size_t r = 0; r < n; ++r) {
      const uint32_t e = m.event[r];
      if (e == kNone) continue;
      const TimeNs t = s.events.start[e], d = s.events.dur[e];
      if (!any || t < first) first = t;
      if (!any || t > last) last = t, m.late_rank = static_cast<uint32_t>(r);
      if (!any || d < lat) lat = d;
      any = true;
    }
    m.latency = lat;
    m.skew = last - first;
    for (size_t r = 0; r < n; ++r)
      if (m.event[r] != kNone) st[r].late_total += s.events.start[m.event[r]] - first;
    if (m.ranks_present > 1 && m.skew > 0) ++st[m.late_rank].late_count;
    // Size and group from the first rank that has them.
    const CollectiveArgs* c = nullptr;
    for (size_t r = 0; r < n && !c; ++r)
      if (m.event[r] != kNone) c = s.collectives.find(s.events.src_offset[m.event[r]]);
    const int64_t nelems = c ? std::max(c->in_nelems, c->out_nelems) : -1;
    const double elem = c ? dtype_bytes(c->dtype) : 0;
    const int64_t group = c && c->group_size > 0 ? c->group_size : -1;
    const double factor = busbw_factor(m.name, group);
    if (!c) {
      m.bw_why = "the file gives no message size (In msg nelems, dtype) for this collective";
    } else if (nelems < 0 || elem == 0) {
      m.bw_why = nelems < 0 ? "no In / Out msg nelems in the kernel's args"
                            : "unknown dtype \"" + c->dtype + "\"";
    } else if (m.latency <= 0) {
      m.bw_why = "zero duration";
    } else {
      m.bytes = static_cast<double>(nelems) * elem;
      m.algbw = m.bytes / (static_cast<double>(m.latency) * 1e-9);
      if (factor > 0)
        m.busbw = m.algbw * factor;
      else
        m.bw_why = group < 0 ? "no Group size in the kernel's args"
                             : "no NCCL-tests bus factor for \"" + m.name + "\"";
    }
  }
  std::stable_sort(a.collectives.begin(), a.collectives.end(),
                   [&](const MatchedCollective& x, const MatchedCollective& y) {
                     auto start = [&](const MatchedCollective& m) {
                       TimeNs t = INT64_MAX;
                       for (uint32_t e : m.event)
                         if (e != kNone) t = std::min(t, s.events.start[e]);
                       return t;
                     };
                     return start(x) < start(y);
                   });

  // Stragglers by the ranks' GPU compute time.
  std::vector<double> x(n);
  for (size_t r = 0; r < n; ++r) x[r] = static_cast<double>(a.ranks[r].time.compute);
  if (n > 0) {
    const double med = median(x);
    std::vector<double> dev(n);
    for (size_t r = 0; r < n; ++r) dev[r] = std::fabs(x[r] - med);
    const double mad = median(dev);
    double lo = x[0], hi = x[0], sum = 0;
    size_t slowest = 0;
    for (size_t r = 0; r < n; ++r) {
      lo = std::min(lo, x[r]);
      if (x[r] > hi) hi = x[r], slowest = r;
      sum += x[r];
      if (mad > 0) {
        st[r].zscore = 0.6745 * (x[r] - med) / mad;
        st[r].z_defined = true;
        st[r].by_z = std::fabs(st[r].zscore) > kStragglerZ;
      }
    }
    const double mean = sum / static_cast<double>(n);
    a.spread = mean > 0 ? (hi - lo) / mean : 0;
    if (n > 1 && a.spread > kStragglerSpread) st[slowest].by_spread = true;
  }
  a.stragglers = std::move(st);
  return a;
}

}  // namespace strata
