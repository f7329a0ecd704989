#include "ui/runs/runs_fetch.h"

#include <cstdlib>
#include <set>

#include "core/base/json_writer.h"
#include "core/formats/json/json_flat.h"
#include "core/runs/json_members.h"
#include "protocol/reply_keys.h"
#include "protocol/reply_keys_links.h"
#include "protocol/reply_keys_runs.h"
#include "protocol/reply_keys_runs_steps.h"
#include "protocol/reply_keys_sqlite.h"
#include "ui/runs/runs_view.h"

namespace strata {

namespace {

namespace keys = protocol::keys;
namespace stats = keys::runs_stats;
namespace step_key = keys::runs_step;
namespace msg = protocol::runs_stats_message;
namespace stats_kind = protocol::runs_stats_kind;
namespace query = protocol::runs_query;
using protocol::RunsStepKind;

void append_key(std::string* out, std::string_view key) {
  json_append_string(out, key);
  *out += ':';
}
// `,"key":` (or `"key":` right after an opening brace).
void next_key(std::string* out, std::string_view key) {
  if (!out->empty() && out->back() != '{') *out += ',';
  append_key(out, key);
}

std::string profile_key(int run, int profile) {
  return std::to_string(run) + "/" + std::to_string(profile);
}
std::string cache_key(int run, int profile, RunsPart part, bool grouped) {
  return profile_key(run, profile) + "/" + std::string(runs_part_key(part)) +
         (grouped ? "/1" : "/0");
}

const DiscoveredProfile& profile_at(const RunsView& v, int run, int profile) {
  return v.discovery.runs[static_cast<size_t>(run)].profiles[static_cast<size_t>(profile)];
}

// A runsStats message's opening: {type, kind, groupByShape (the UI's grouping).
std::string message(const RunsView& v, std::string_view kind) {
  std::string m = "{";
  next_key(&m, msg::kType);
  json_append_string(&m, msg::kTypeName);
  next_key(&m, msg::kKind);
  json_append_string(&m, kind);
  next_key(&m, msg::kGroupByShape);
  m += v.group_by_shape ? "true" : "false";
  return m;
}

// One goal's steps, planned knowing what the engine will hold and what will be kept once the
// steps before them have run.
struct Planner {
  RunsView* v;
  std::string loaded;
  std::set<std::string> cached;
  std::vector<RunsStep> steps;

  explicit Planner(RunsView* view) : v(view), loaded(view->fetch.loaded_key) {}

  RunsStep& add(RunsStep::Kind kind) {
    steps.emplace_back();
    steps.back().kind = kind;
    return steps.back();
  }
  void status(std::string text) { add(RunsStep::Kind::kStatus).text = std::move(text); }
  bool has(const std::string& key) const {
    return cached.count(key) > 0 || v->fetch.cache.count(key) > 0;
  }

  // The engine holds run.profiles[profile]'s trace (and memory CSVs).
  void load(int run, int profile, bool memory) {
    const std::string key = profile_key(run, profile);
    if (loaded == key) return;
    const DiscoveredProfile& p = profile_at(*v, run, profile);
    status("Loading " + p.worker + (p.span.empty() ? "" : " (" + p.span + ")") + "...");
    bool first = true;
    for (int32_t input : runs_trace_inputs(p, memory)) {
      RunsStep& open = add(RunsStep::Kind::kOpen);
      open.entry = input;
      if (first) open.text = p.note;  // the trace says which files it was read from
      first = false;
    }
    add(RunsStep::Kind::kLoaded).text = key;
    status("");
    loaded = key;
  }

  void request(std::string message_json, std::vector<std::pair<std::string, int32_t>> files = {},
               bool append = false, bool keep = true) {
    RunsStep& s = add(RunsStep::Kind::kRequest);
    s.message = std::move(message_json) + "}";
    s.files = std::move(files);
    s.append = append;
    s.keep = keep;
  }
  void commit(std::vector<std::string> keys) {
    for (const std::string& k : keys) cached.insert(k);
    add(RunsStep::Kind::kCommit).cache_keys = std::move(keys);
  }

  // One part of a profile's statistics, unless it is kept already.
  void compute(const RunsSelection& s, RunsPart part) {
    const bool grouped = v->group_by_shape;
    const std::string key = cache_key(s.run, s.profile, part, grouped);
    if (has(key)) return;
    const DiscoveredRun& run = v->discovery.runs[static_cast<size_t>(s.run)];
    const DiscoveredProfile& p = run.profiles[static_cast<size_t>(s.profile)];
    if (p.kind == ProfileKind::kKineto && part == RunsPart::kDistributed) {
      // One row per worker of the discovery's set (this span's workers, else one trace per
      // worker): each trace is loaded in turn.
      for (const uint32_t i : run_distributed_set(run, static_cast<size_t>(s.profile))) {
        const DiscoveredProfile& q = run.profiles[i];
        load(s.run, static_cast<int>(i), false);
        std::string m = message(*v, stats_kind::kTrace);
        next_key(&m, msg::kCard);
        json_append_int(&m, runs_card_of(run, q));
        request(std::move(m), {}, true);
      }
      commit({key});
    } else if (p.kind == ProfileKind::kKineto) {
      load(s.run, s.profile, false);
      std::string m = message(*v, stats_kind::kTrace);
      next_key(&m, msg::kCard);
      json_append_int(&m, runs_card_of(run, p));
      request(std::move(m));
      // One pass gives both tables: keep the other one too.
      const RunsPart other =
          part == RunsPart::kOperators ? RunsPart::kKernels : RunsPart::kOperators;
      commit({key, cache_key(s.run, s.profile, other, grouped)});
    } else {
      int cards = 0;
      auto files = runs_ascend_part_files(v->discovery, s, part, &cards);
      std::string m = message(*v, stats_kind::kAscend);
      next_key(&m, msg::kCards);
      json_append_int(&m, cards);
      request(std::move(m), std::move(files));
      commit({key});
    }
  }

  void deliver(std::string_view part, std::string key) {
    RunsStep& s = add(RunsStep::Kind::kDeliver);
    s.text = std::string(part);
    s.cache_keys = {std::move(key)};
  }

  void diff(const RunsProfileRef& a, const RunsProfileRef& b, const std::string& step) {
    // Kineto sides: each trace is loaded in turn and its tables kept in the worker; Ascend
    // sides: their operator_details.csv and kernel_details.csv.
    std::vector<std::pair<std::string, int32_t>> files;
    for (const auto& [slot, side] : {std::pair<const char*, RunsProfileRef>{"a", a}, {"b", b}}) {
      const DiscoveredProfile& p = profile_at(*v, side.run, side.profile);
      if (p.kind == ProfileKind::kKineto) {
        load(side.run, side.profile, false);
        std::string m = message(*v, stats_kind::kKeep);
        next_key(&m, msg::kSlot);
        json_append_string(&m, slot);
        request(std::move(m), {}, false, false);
      } else {
        for (auto& f : runs_ascend_diff_files(p, slot)) files.push_back(std::move(f));
      }
    }
    std::string m = message(*v, stats_kind::kDiff);
    next_key(&m, msg::kStep);
    json_append_string(&m, step);
    request(std::move(m), std::move(files));
    RunsStep& c = add(RunsStep::Kind::kCommit);
    c.diff = true;
    c.a = a;
    c.b = b;
    deliver(kRunsDiffPart, "");
  }

  // What the selected view shows.
  void show() {
    const RunsSelection s{v->run, v->profile, v->view};
    const RunView view = static_cast<RunView>(s.view);
    const DiscoveredRun& run = v->discovery.runs[static_cast<size_t>(s.run)];
    status("");
    // A disabled view shows its "needs <file>" note.
    if (!run_view_availability(v->discovery, run, static_cast<size_t>(s.profile), view).enabled)
      return;
    if (view == RunView::kTrace || view == RunView::kMemory) {
      load(s.run, s.profile, view == RunView::kMemory);
      add(RunsStep::Kind::kShowProfile);
      add(RunsStep::Kind::kFrames);
      return;
    }
    if (view == RunView::kDiff) {
      if (!v->fetch.diff.empty()) {
        deliver(kRunsDiffPart, "");
        return;
      }
      RunsProfileRef a, b;
      runs_default_diff_pair(v->discovery, s, &a, &b);
      diff(a, b, "");
      return;
    }
    const RunsPart part = view == RunView::kOperator ? RunsPart::kOperators
                          : view == RunView::kKernel ? RunsPart::kKernels
                                                     : RunsPart::kDistributed;
    compute(s, part);
    deliver(runs_part_key(part), cache_key(s.run, s.profile, part, v->group_by_shape));
  }
};

void begin(RunsView* v, RunsGoal goal, std::vector<RunsStep> steps) {
  RunsFetch& f = v->fetch;
  f.goal = goal;
  f.names_nothing = false;
  f.steps = std::move(steps);
  f.next = 0;
  f.reply.clear();
}

// The parts of the views Operator, Kernel and Distributed, in that order.
constexpr std::pair<RunView, RunsPart> kTableViews[] = {
    {RunView::kOperator, RunsPart::kOperators},
    {RunView::kKernel, RunsPart::kKernels},
    {RunView::kDistributed, RunsPart::kDistributed}};

bool view_enabled(const RunsView& v, RunView view) {
  const DiscoveredRun& run = v.discovery.runs[static_cast<size_t>(v.run)];
  return run_view_availability(v.discovery, run, static_cast<size_t>(v.profile), view).enabled;
}

// [{name, workers: [{name, spans}]}]: the runs as strata.open and strata.stats answer them.
std::string runs_brief(const RunsView& v) {
  std::string s = "[";
  for (const DiscoveredRun& r : v.discovery.runs) {
    if (s.size() > 1) s += ',';
    s += "{\"name\":";
    json_append_string(&s, r.name);
    s += ",\"workers\":" + run_workers_json(r) + "}";
  }
  return s + "]";
}

// {run, worker, span, view} as names, or null.
std::string selection_names(const RunsView& v) {
  if (v.discovery.runs.empty()) return "null";
  const DiscoveredRun& r = v.discovery.runs[static_cast<size_t>(v.run)];
  const DiscoveredProfile& p = r.profiles[static_cast<size_t>(v.profile)];
  std::string s = "{\"run\":";
  json_append_string(&s, r.name);
  s += ",\"worker\":";
  json_append_string(&s, p.worker);
  s += ",\"span\":";
  json_append_string(&s, p.span);
  s += ",\"view\":";
  json_append_string(&s, run_view_name(static_cast<RunView>(v.view)));
  return s + "}";
}

// strata.stats(): the selected profile's tables, from the replies kept.
std::string stats_answer(const RunsView& v) {
  if (v.discovery.runs.empty()) {
    std::string s = "{\"runs\":[],\"selection\":null";
    for (std::string_view k : {stats::kOperators, stats::kKernels, stats::kDistributed}) {
      next_key(&s, k);
      s += "[]";
    }
    return s + "}";
  }
  std::string operators = "[]", kernels = "[]", core_types = "[]", distributed = "[]";
  std::string errors = "[]";
  for (const auto& [view, part] : kTableViews) {
    if (!view_enabled(v, view)) continue;
    const auto it = v.fetch.cache.find(cache_key(v.run, v.profile, part, v.group_by_shape));
    std::vector<JsonMember> m;
    if (it != v.fetch.cache.end()) json_object_members(it->second, &m);
    if (part == RunsPart::kOperators) operators = json_member(m, stats::kOperators, "[]");
    if (part == RunsPart::kKernels) {
      kernels = json_member(m, stats::kKernels, "[]");
      core_types = json_member(m, stats::kKernelCoreTypes, "[]");
    }
    if (part == RunsPart::kDistributed) distributed = json_member(m, stats::kDistributed, "[]");
    errors = json_array_concat(errors, json_member(m, stats::kErrors, "[]"));
  }
  std::string s =
      "{\"runs\":" + runs_brief(v) + ",\"selection\":" + selection_names(v) + ",\"views\":";
  s += run_profile_views_json(v.discovery, v.discovery.runs[static_cast<size_t>(v.run)],
                              static_cast<size_t>(v.profile));
  next_key(&s, stats::kOperators);
  s += operators;
  next_key(&s, stats::kKernels);
  s += kernels;
  next_key(&s, stats::kKernelCoreTypes);
  s += core_types;
  next_key(&s, stats::kDistributed);
  s += distributed;
  next_key(&s, stats::kErrors);
  s += errors;
  next_key(&s, stats::kNote);
  json_append_string(&s, profile_at(v, v.run, v.profile).note);
  if (!v.fetch.diff.empty()) {
    std::vector<JsonMember> m;
    json_object_members(v.fetch.diff, &m);
    s += ",\"diff\":{";
    for (std::string_view k : {stats::kOperatorDiff, stats::kStepDiff}) {
      const std::string_view value = json_member(m, k, "");
      if (value.empty()) continue;
      next_key(&s, k);
      s += value;
    }
    s += "}";
  }
  return s + "}";
}

std::string empty_diff(std::string_view error) {
  std::string s = "{";
  next_key(&s, stats::kOperatorDiff);
  s += "[]";
  next_key(&s, stats::kStepDiff);
  s += "{";
  next_key(&s, keys::runs_step_diff::kStep);
  s += "\"\"";
  next_key(&s, keys::runs_step_diff::kRows);
  s += "[]}";
  next_key(&s, stats::kSteps);
  s += "[]";
  next_key(&s, stats::kErrors);
  s += "[";
  json_append_string(&s, error);
  return s + "]}";
}

std::string answer(const RunsView& v) {
  switch (v.fetch.goal) {
    case RunsGoal::kFolder:
      return "{\"runs\":" + runs_brief(v) + "}";
    case RunsGoal::kShow:
      return selection_names(v);
    case RunsGoal::kSelect:
      return v.fetch.names_nothing ? "null" : selection_names(v);
    case RunsGoal::kStats:
      return stats_answer(v);
    case RunsGoal::kDiff:
      return v.fetch.names_nothing ? empty_diff("runsDiff: no such profile") : v.fetch.diff;
    case RunsGoal::kNoRuns:
      return "{\"runs\":[]}";
    case RunsGoal::kIdle:
      break;
  }
  return "null";
}

// The diff reply with its pair: {..., a: {run, profile}, b: {...}}.
std::string with_pair(std::string reply, const RunsProfileRef& a, const RunsProfileRef& b) {
  std::vector<JsonMember> m;
  if (!json_object_members(reply, &m)) reply = "{}";
  reply.pop_back();  // the closing brace
  for (const auto& [key, side] :
       {std::pair<std::string_view, RunsProfileRef>{stats::kA, a}, {stats::kB, b}}) {
    next_key(&reply, key);
    reply += "{";
    next_key(&reply, keys::runs_diff_side::kRun);
    json_append_int(&reply, side.run);
    next_key(&reply, keys::runs_diff_side::kProfile);
    json_append_int(&reply, side.profile);
    reply += "}";
  }
  return reply + "}";
}

// A request's reply joins those since the last commit.
void absorb(RunsFetch* f, const RunsStep& step, std::string_view reply) {
  if (!step.keep) return;
  if (!step.append) {
    f->reply = std::string(reply);
    return;
  }
  std::vector<JsonMember> now, add;
  json_object_members(f->reply, &now);
  json_object_members(reply, &add);
  std::string s = "{";
  for (std::string_view k : {stats::kDistributed, stats::kErrors}) {
    next_key(&s, k);
    s += json_array_concat(json_member(now, k, "[]"), json_member(add, k, "[]"));
  }
  f->reply = s + "}";
}

// A step for the page, as JSON.
std::string step_json(RunsStepKind kind) {
  std::string s = "{";
  next_key(&s, step_key::kStep);
  json_append_string(&s, protocol::runs_step_kind_name(kind));
  return s;
}

// Reads a script's query: the members of `json` at depth 0 (depth 1 under `prefix`, if given).
std::vector<JsonLine> query_lines(std::string_view json) {
  std::vector<JsonLine> lines;
  std::string error;
  if (json.empty() || !json_flatten(json, &lines, &error)) lines.clear();
  return lines;
}

bool read_side(const std::vector<JsonLine>& lines, std::string_view name, RunsProfileRef* out) {
  bool found = false;
  json_walk(lines, [&](const std::vector<std::string>& k, const JsonLine& l) {
    if (l.depth != 1 || k[0] != name || l.kind != 'n') return;
    if (k[1] == keys::runs_diff_side::kRun) out->run = static_cast<int>(json_number(l));
    if (k[1] == keys::runs_diff_side::kProfile) out->profile = static_cast<int>(json_number(l));
    found = true;
  });
  return found;
}

}  // namespace

namespace {

// The folder's first view, once the runs are found.
void plan_folder(RunsView* v, Planner& plan) {
  if (v->discovery.runs.empty()) {
    plan.status(
        "No profiler runs in this folder (no *_ascend_pt/ASCEND_PROFILER_OUTPUT or "
        "*.pt.trace.json files)");
  } else {
    plan.add(RunsStep::Kind::kFrames);  // the Runs tab comes forward first
    RunsSelection s;
    if (runs_resolve(v->discovery, RunsSelection{v->run, v->profile, v->view}, RunsQuery{}, &s))
      runs_view_select(v, s.run, s.profile, s.view);
    plan.show();
  }
}

}  // namespace

void runs_fetch_folder(RunsView* v) {
  Planner plan(v);
  const std::vector<uint32_t> heads = run_head_candidates(v->paths);
  v->head_ranks.assign(v->paths.size(), -1);
  if (heads.empty()) {
    plan_folder(v, plan);
  } else {
    plan.status("Reading the traces' first bytes...");
    for (const uint32_t i : heads) {
      plan.request(message(*v, stats_kind::kHead), {{"head", static_cast<int32_t>(i)}}, false,
                   false);
      plan.steps.back().head_of = static_cast<int32_t>(i);
    }
    plan.add(RunsStep::Kind::kHeads);
  }
  begin(v, RunsGoal::kFolder, std::move(plan.steps));
}

void runs_fetch_no_runs(RunsView* v) { begin(v, RunsGoal::kNoRuns, {}); }

void runs_fetch_show(RunsView* v) {
  Planner plan(v);
  if (!v->discovery.runs.empty()) plan.show();
  begin(v, RunsGoal::kShow, std::move(plan.steps));
}

void runs_fetch_select(RunsView* v, std::string_view query_json) {
  RunsQuery q;
  bool group = false, has_group = false;
  for (const JsonLine& l : query_lines(query_json)) {
    if (l.depth != 0 || l.kind == 'z' || l.kind == 'o' || l.kind == 'a') continue;
    if (l.key == query::kRun) {
      q.has_run = true;
      q.run_by_name = l.kind != 'n';
      q.run_name = l.value;
      q.run_index = l.kind == 'n' ? static_cast<int>(json_number(l)) : -1;
    } else if (l.key == query::kWorker) {
      q.has_worker = true;
      q.worker = l.value;
    } else if (l.key == query::kSpan) {
      q.has_span = true;
      q.span = l.value;
    } else if (l.key == query::kView) {
      q.has_view = true;
      q.view = l.value;
    } else if (l.key == query::kGroupByShape) {
      has_group = true;
      group = l.kind == 'b'   ? l.value == "true"
              : l.kind == 'n' ? json_number(l) != 0
                              : !l.value.empty();
    }
  }
  if (v->discovery.runs.empty()) {
    begin(v, RunsGoal::kSelect, {});
    v->fetch.names_nothing = true;
    return;
  }
  if (has_group) v->group_by_shape = group;
  RunsSelection s;
  if (!runs_resolve(v->discovery, RunsSelection{v->run, v->profile, v->view}, q, &s)) {
    begin(v, RunsGoal::kSelect, {});
    v->fetch.names_nothing = true;
    return;
  }
  runs_view_select(v, s.run, s.profile, s.view);
  v->status.clear();
  Planner plan(v);
  plan.show();
  begin(v, RunsGoal::kSelect, std::move(plan.steps));
}

void runs_fetch_stats(RunsView* v) {
  Planner plan(v);
  if (!v->discovery.runs.empty())
    for (const auto& [view, part] : kTableViews)
      if (view_enabled(*v, view)) plan.compute(RunsSelection{v->run, v->profile, v->view}, part);
  begin(v, RunsGoal::kStats, std::move(plan.steps));
}

void runs_fetch_diff(RunsView* v, std::string_view query_json) {
  const std::vector<JsonLine> lines = query_lines(query_json);
  RunsProfileRef a, b;
  if (!v->discovery.runs.empty())
    runs_default_diff_pair(v->discovery, RunsSelection{v->run, v->profile, v->view}, &a, &b);
  RunsProfileRef qa, qb;
  if (read_side(lines, stats::kA, &qa)) a = qa;
  if (read_side(lines, stats::kB, &qb)) b = qb;
  std::string step;
  for (const JsonLine& l : lines)
    if (l.depth == 0 && l.key == query::kStep && l.kind == 's') step = l.value;
  runs_fetch_diff_pair(v, a, b, std::move(step));
}

void runs_fetch_diff_pair(RunsView* v, RunsProfileRef a, RunsProfileRef b, std::string step) {
  if (v->discovery.runs.empty()) {  // no folder: nothing to compare, no answer
    begin(v, RunsGoal::kIdle, {});
    return;
  }
  Planner plan(v);
  const bool known = runs_profile_exists(v->discovery, a) && runs_profile_exists(v->discovery, b);
  if (known) plan.diff(a, b, step);
  begin(v, RunsGoal::kDiff, std::move(plan.steps));
  v->fetch.names_nothing = !known;
}

RunsNextStep runs_fetch_next(RunsView* v, std::string_view reply) {
  RunsFetch& f = v->fetch;
  RunsNextStep out;
  if (f.next > 0 && f.next <= f.steps.size() &&
      f.steps[f.next - 1].kind == RunsStep::Kind::kRequest) {
    const RunsStep& done = f.steps[f.next - 1];
    if (done.head_of >= 0 && static_cast<size_t>(done.head_of) < v->head_ranks.size()) {
      std::vector<JsonMember> m;
      json_object_members(reply, &m);
      const std::string rank(json_member(m, stats::kRank, "-1"));
      v->head_ranks[static_cast<size_t>(done.head_of)] = std::atoll(rank.c_str());
    }
    absorb(&f, done, reply);
  }
  while (f.next < f.steps.size()) {
    const RunsStep& s = f.steps[f.next++];
    switch (s.kind) {
      case RunsStep::Kind::kOpen:
        out.json = step_json(RunsStepKind::kOpen);
        next_key(&out.json, step_key::kEntry);
        json_append_int(&out.json, s.entry);
        if (!s.text.empty()) {
          next_key(&out.json, step_key::kNote);
          json_append_string(&out.json, s.text);
        }
        out.json += "}";
        return out;
      case RunsStep::Kind::kRequest:
        out.json = step_json(RunsStepKind::kRequest);
        next_key(&out.json, step_key::kMessage);
        out.json += s.message;
        next_key(&out.json, step_key::kFiles);
        out.json += "{";
        for (const auto& [key, input] : s.files) {
          next_key(&out.json, key);
          json_append_int(&out.json, input);
        }
        out.json += "}}";
        return out;
      case RunsStep::Kind::kFrames:
        out.json = step_json(RunsStepKind::kFrames) + "}";
        return out;
      case RunsStep::Kind::kStatus:
        v->status = s.text;
        break;
      case RunsStep::Kind::kLoaded:
        f.loaded_key = s.text;
        break;
      case RunsStep::Kind::kCommit:
        if (s.diff)
          f.diff = with_pair(f.reply, s.a, s.b);
        else
          for (const std::string& k : s.cache_keys) f.cache[k] = f.reply;
        f.reply.clear();
        break;
      case RunsStep::Kind::kDeliver: {
        const std::string& json = s.cache_keys[0].empty() ? f.diff : f.cache[s.cache_keys[0]];
        std::vector<JsonMember> m;
        json_object_members(json, &m);
        // The reply's first error, if any, replaces the status line.
        const std::string_view errors = json_member(m, stats::kErrors, "[]");
        if (errors.find('"') != std::string_view::npos) v->status.clear();
        runs_view_stats(v, s.text, json.c_str());
        break;
      }
      case RunsStep::Kind::kShowProfile:
        out.show_profile_tab = true;
        break;
      case RunsStep::Kind::kHeads: {
        // The runs again, now knowing the ranks; the folder's first view follows.
        v->discovery = discover_runs(v->paths, v->head_ranks);
        v->status.clear();
        Planner plan(v);
        plan_folder(v, plan);
        f.steps.resize(f.next);
        f.steps.insert(f.steps.end(), plan.steps.begin(), plan.steps.end());
        break;
      }
    }
  }
  out.json = step_json(RunsStepKind::kDone);
  next_key(&out.json, step_key::kAnswer);
  out.json += answer(*v) + "}";
  begin(v, RunsGoal::kIdle, {});
  return out;
}

std::string runs_fetch_failed(RunsView* v, std::string_view error) {
  const bool diff = v->fetch.goal == RunsGoal::kDiff;
  const std::string out = diff ? empty_diff(error)
                          : v->fetch.goal == RunsGoal::kShow || v->fetch.goal == RunsGoal::kSelect
                              ? selection_names(*v)
                              : std::string("null");
  v->status = std::string(error);
  begin(v, RunsGoal::kIdle, {});
  return out;
}

}  // namespace strata
