// derive_rows: XProf's DerivedXLineBuilder (xprof derived_timeline.cc), reduced to what the
// trace viewer shows. Per row and nesting level the last event stays open; the next source
// event extends it when it has the same name and group, else it closes it (and the levels
// below it, and the rows that depend on it) and opens a new one.
#include "core/formats/xplane/xplane_derived.h"

#include <algorithm>
#include <functional>
#include <string>
#include <utility>

namespace strata {

namespace {

bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_lower(char c) { return c >= 'a' && c <= 'z'; }
bool is_upper(char c) { return c >= 'A' && c <= 'Z'; }

// [A-Za-z0-9.][A-Za-z0-9_.\/>-]*
bool is_tf_op_name(std::string_view s) {
  if (s.empty()) return false;
  auto head = [](char c) { return is_lower(c) || is_upper(c) || is_digit(c) || c == '.'; };
  if (!head(s[0])) return false;
  for (char c : s.substr(1))
    if (!head(c) && c != '_' && c != '/' && c != '>' && c != '-') return false;
  return true;
}

// [A-Z_][a-zA-Z0-9_]*
bool is_tf_op_type(std::string_view s) {
  if (s.empty() || !(is_upper(s[0]) || s[0] == '_')) return false;
  for (char c : s)
    if (!is_lower(c) && !is_upper(c) && !is_digit(c) && c != '_') return false;
  return true;
}

// [a-z_][a-z0-9_]*(\[.*\])?
bool is_jax_op_type(std::string_view s) {
  if (s.empty() || !(is_lower(s[0]) || s[0] == '_')) return false;
  size_t i = 1;
  while (i < s.size() && (is_lower(s[i]) || is_digit(s[i]) || s[i] == '_')) ++i;
  return i == s.size() || (s[i] == '[' && s.back() == ']');
}

// "a/b/op_12" → "op"; "a/b/op" → "op".
std::string_view derive_op_type(std::string_view full) {
  size_t slash = full.rfind('/');
  std::string_view op = slash == std::string_view::npos ? full : full.substr(slash + 1);
  size_t us = op.rfind('_');
  if (us != std::string_view::npos && us + 1 < op.size() &&
      std::all_of(op.begin() + static_cast<std::ptrdiff_t>(us + 1), op.end(), is_digit))
    return op.substr(0, us);
  return op;
}

}  // namespace

TfOp parse_tf_op(std::string_view full) {
  TfOp op;
  op.name = full;
  size_t colon = full.find(':');
  if (colon == std::string_view::npos) {
    op.shown = std::string(full);
    while (!op.shown.empty() && (op.shown.back() == ' ' || op.shown.back() == '\t'))
      op.shown.pop_back();
    return op;
  }
  std::string_view name = full.substr(0, colon), type = full.substr(colon + 1);
  if (name == "Iterator") {
    size_t sep = full.rfind("::");
    op.shown =
        "Iterator::" + std::string(sep == std::string_view::npos ? full : full.substr(sep + 2));
    return op;
  }
  if (is_tf_op_name(name) && is_tf_op_type(type)) {
    op.scoped = true, op.name = name, op.shown = std::string(type);
    return op;
  }
  std::string_view t = type.empty() ? derive_op_type(name) : type;
  if (is_jax_op_type(t)) {
    op.scoped = true, op.name = name, op.shown = std::string(t.substr(0, t.find('[')));
    return op;
  }
  if (type.empty()) {
    op.scoped = true, op.name = name, op.shown = std::string(t);
    return op;
  }
  op.shown = std::string(full);
  return op;
}

namespace {

// Splits `s` on `sep` (XProf's absl::StrSplit: empty parts kept).
void split(std::string_view s, std::string_view sep, std::vector<std::string_view>* out) {
  out->clear();
  for (size_t at = 0;;) {
    size_t next = s.find(sep, at);
    if (next == std::string_view::npos) {
      out->push_back(s.substr(at));
      return;
    }
    out->push_back(s.substr(at, next - at));
    at = next + sep.size();
  }
}

class DerivedRow {
 public:
  // The track is made when the row's first event is complete: a row without data has none.
  DerivedRow(TraceBuilder* b, std::function<uint32_t()> make_track)
      : b_(b), make_track_(std::move(make_track)) {}
  void depends(DerivedRow* r) { dependents_.push_back(r); }

  // `key` identifies the event (XProf: its metadata); `name` is what it shows.
  void expand_or_add(size_t level, uint64_t key, StrId name, const DeriveInput& in) {
    if (open_.size() <= level) open_.resize(level + 1);
    Open& o = open_[level];
    if (o.valid && o.key == key && o.has_group == in.has_group &&
        (!in.has_group || o.group == in.group)) {
      o.start = std::min(o.start, in.start);
      o.end = std::max(o.end, in.end);
      return;
    }
    reset(level);
    o = Open{true, key, name, in.has_group, in.group, in.start, in.end, in.src_offset, in.src_len};
  }
  // One event per level (name scopes, nested HLO ops); deeper levels left open are closed.
  void expand_or_add(const std::vector<std::pair<uint64_t, StrId>>& levels, const DeriveInput& in) {
    if (levels.empty()) return;
    for (size_t l = 0; l < levels.size(); ++l)
      expand_or_add(l, levels[l].first, levels[l].second, in);
    reset(levels.size());
  }
  void reset(size_t level) {
    for (size_t l = level; l < open_.size(); ++l) {
      Open& o = open_[l];
      if (!o.valid) continue;
      if (track_ == kNone) track_ = make_track_();
      b_->add_complete(track_, o.start, o.end - o.start, o.name, 0, o.src_offset, o.src_len);
      b_->count_phase('X');
      ++added_;
      o.valid = false;
    }
    if (level == 0)
      for (DerivedRow* d : dependents_) d->reset(0);
  }
  uint64_t added() const { return added_; }

 private:
  struct Open {
    bool valid = false;
    uint64_t key = 0;
    StrId name = 0;
    bool has_group = false;
    int64_t group = 0;
    TimeNs start = 0, end = 0;
    uint64_t src_offset = 0;
    uint32_t src_len = 0;
  };
  TraceBuilder* b_;
  std::function<uint32_t()> make_track_;
  uint32_t track_ = kNone;
  std::vector<Open> open_;
  std::vector<DerivedRow*> dependents_;
  uint64_t added_ = 0;
};

}  // namespace

// XProf's event order: by start, longer first.
static void sort_for_derive(std::vector<DeriveInput>* in) {
  std::stable_sort(in->begin(), in->end(), [](const DeriveInput& a, const DeriveInput& b) {
    if (a.start != b.start) return a.start < b.start;
    return a.end - a.start > b.end - b.start;
  });
}

uint64_t derive_steps(std::vector<DeriveInput>* in, TraceBuilder* builder, uint32_t track) {
  sort_for_derive(in);
  DerivedRow steps(builder, [track] { return track; });
  for (const DeriveInput& d : *in) {
    const StrId name = builder->strings().intern(std::to_string(d.group));
    steps.expand_or_add(0, static_cast<uint64_t>(d.group), name, d);
  }
  steps.reset(0);
  return steps.added();
}

uint64_t derive_rows(std::vector<DeriveInput>* in, const DeriveRows& rows, TraceBuilder* builder,
                     const DerivedTrackFn& track_of) {
  sort_for_derive(in);
  auto make = [&](int64_t id, const char* name) {
    return DerivedRow(builder, [&track_of, id, name] { return track_of(id, name); });
  };
  DerivedRow modules = make(kLineXlaModules, "XLA Modules"), hlo_ops = make(kLineXlaOps, "XLA Ops"),
             scope = make(kLineNameScope, "Framework Name Scope"),
             ops = make(kLineTfOps, "Framework Ops"), source = make(kLineSource, "Source code");
  // XProf: a new module closes the open name scopes and HLO ops; a new name scope, the op.
  modules.depends(&scope);
  modules.depends(&hlo_ops);
  scope.depends(&ops);
  StringTable& strings = builder->strings();
  std::vector<std::string_view> parts;
  std::vector<std::pair<uint64_t, StrId>> levels;
  for (const DeriveInput& d : *in) {
    if (rows.xla_modules && d.module) modules.expand_or_add(0, d.module, d.module, d);
    if (rows.xla_ops && d.hlo_op) {
      // Nested ops ("outer::inner"); the module keeps same-named ops of two modules apart.
      split(strings.get(d.hlo_op), "::", &parts);
      levels.clear();
      for (std::string_view p : parts) {
        StrId s = strings.intern(p);
        levels.emplace_back((uint64_t{d.module} << 32) | s, s);
      }
      hlo_ops.expand_or_add(levels, d);
    }
    if (d.tf_op && (rows.name_scope || rows.tf_ops)) {
      TfOp op = parse_tf_op(strings.get(d.tf_op));
      if (op.scoped && rows.name_scope) {
        split(op.name, "/", &parts);
        parts.pop_back();  // the op itself
        levels.clear();
        for (std::string_view p : parts) {
          StrId s = strings.intern(p);
          levels.emplace_back(s, s);
        }
        scope.expand_or_add(levels, d);
      }
      if (rows.tf_ops) ops.expand_or_add(0, d.tf_op, strings.intern(op.shown), d);
    }
    if (rows.source && d.source) source.expand_or_add(0, d.source, d.source, d);
  }
  uint64_t added = 0;
  for (DerivedRow* r : {&modules, &scope, &hlo_ops, &ops, &source}) {
    r->reset(0);
    added += r->added();
  }
  return added;
}

}  // namespace strata
