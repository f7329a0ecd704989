// A later slice of a sliced XSpace load as bytes (xplane_sliced.h, store/slice_codec.h): what
// XPlaneImporter::absorb takes of it (the import's counts, sections and HLO symbols, the
// details pane's tables, the plane summaries, the framing state), then its builder's staging
// (TraceBuilder::encode_part).
#include <memory>

#include "core/formats/xplane/xplane_importer_impl.h"
#include "core/formats/xplane/xplane_sliced.h"
#include "core/store/slice_codec.h"

namespace strata::xplane_impl {

namespace {

constexpr uint32_t kMagic = 0x50535853;  // "SXSP": an XSpace slice

template <class T>
void id_table(SliceWriter* w, const IdTable<T>& t) {
  w->pod(static_cast<uint64_t>(t.items.size()));
  for (const auto& [id, v] : t.items) w->pod(id), w->pod(v);
}
template <class T>
void id_table(SliceReader* r, IdTable<T>* t) {
  const size_t n = r->count(sizeof(int64_t) + sizeof(T));
  t->items.resize(n);
  for (auto& [id, v] : t->items) r->pod(&id), r->pod(&v);
}

void fused(SliceWriter* w, const std::vector<HloFusedOp>& ops) {
  w->pod(static_cast<uint64_t>(ops.size()));
  for (const HloFusedOp& op : ops) {
    w->str(op.name), w->str(op.expression), w->str(op.category);
    fused(w, op.fused);
  }
}
void fused(SliceReader* r, std::vector<HloFusedOp>* ops, int depth) {
  const size_t n = depth > 64 ? 0 : r->count(32);
  ops->resize(n);
  for (HloFusedOp& op : *ops) {
    r->str(&op.name), r->str(&op.expression), r->str(&op.category);
    fused(r, &op.fused, depth + 1);
  }
}

void tables(SliceWriter* w, const XSpaceTables& t) {
  w->pod(static_cast<uint64_t>(t.planes.size()));
  for (const XPlaneTables& p : t.planes) {
    w->str(p.name), w->pod(p.id);
    id_table(w, p.stat_names), id_table(w, p.event_meta);
    w->pod(p.plane_stats_at), w->pod(p.plane_stats_len), w->str(p.stats);
  }
  w->pod(static_cast<uint64_t>(t.hostnames.size()));
  for (const std::string& h : t.hostnames) w->str(h);
  w->pod(static_cast<uint64_t>(t.hlo_protos.size()));
  for (const HloProtoSpan& h : t.hlo_protos)
    w->pod(h.program_id), w->str(h.module), w->pod(h.src_offset), w->pod(h.src_len);
  w->pod(static_cast<uint64_t>(t.hlo_ops.by_program.size()));
  for (const auto& [program, texts] : t.hlo_ops.by_program) {
    w->pod(program), w->pod(static_cast<uint64_t>(texts.size()));
    for (const auto& [instr, x] : texts) {
      w->str(instr), w->str(x.expression), w->str(x.category);
      fused(w, x.fused);
      w->str(x.op_name), w->str(x.op_type), w->str(x.source);
    }
  }
  w->pod(static_cast<uint64_t>(t.hlo_ops.program_of_module.size()));
  for (const auto& [module, program] : t.hlo_ops.program_of_module) w->str(module), w->pod(program);
  w->pod(static_cast<uint64_t>(t.full_names.size()));
  for (const auto& [offset, name] : t.full_names) w->pod(offset), w->pod(name);
}

void tables(SliceReader* r, XSpaceTables* t) {
  t->planes.resize(r->count(40));
  for (XPlaneTables& p : t->planes) {
    r->str(&p.name), r->pod(&p.id);
    id_table(r, &p.stat_names), id_table(r, &p.event_meta);
    r->pod(&p.plane_stats_at), r->pod(&p.plane_stats_len), r->str(&p.stats);
  }
  t->hostnames.resize(r->count(8));
  for (std::string& h : t->hostnames) r->str(&h);
  t->hlo_protos.resize(r->count(32));
  for (HloProtoSpan& h : t->hlo_protos)
    r->pod(&h.program_id), r->str(&h.module), r->pod(&h.src_offset), r->pod(&h.src_len);
  for (size_t n = r->count(16); n > 0; --n) {
    auto& texts = t->hlo_ops.by_program[r->get<int64_t>()];
    for (size_t k = r->count(56); k > 0; --k) {
      std::string instr;
      r->str(&instr);
      HloOpText& x = texts[instr];
      r->str(&x.expression), r->str(&x.category);
      fused(r, &x.fused, 0);
      r->str(&x.op_name), r->str(&x.op_type), r->str(&x.source);
    }
  }
  for (size_t n = r->count(16); n > 0; --n) {
    std::string module;
    r->str(&module);
    t->hlo_ops.program_of_module[module] = r->get<int64_t>();
  }
  t->full_names.resize(r->count(12));
  for (auto& [offset, name] : t->full_names) r->pod(&offset), r->pod(&name);
}

void pending(SliceWriter* w, const PendingPlane& p) {
  w->pod(p.active), w->pod(p.file_plane), w->pod(p.first_line), w->pod(p.next_line);
  w->pod(p.lines), w->pod(p.host), w->pod(p.pools), w->vec(p.process);
  for (size_t k = 0; k < p.process.size(); ++k) w->str(p.key[k]), w->str(p.base[k]);
  w->pod(p.rows), w->vec(p.derive_in), w->vec(p.steps_in);
}
bool pending(SliceReader* r, PendingPlane* p) {
  r->pod(&p->active), r->pod(&p->file_plane), r->pod(&p->first_line), r->pod(&p->next_line);
  r->pod(&p->lines), r->pod(&p->host), r->pod(&p->pools), r->vec(&p->process);
  if (!r->ok() || p->process.size() != (p->active ? p->pools + size_t{1} : 0)) return false;
  p->key.resize(p->process.size()), p->base.resize(p->process.size());
  for (size_t k = 0; k < p->process.size(); ++k) r->str(&p->key[k]), r->str(&p->base[k]);
  r->pod(&p->rows), r->vec(&p->derive_in), r->vec(&p->steps_in);
  return r->ok();
}

}  // namespace

void XPlaneImporter::encode(SliceWriter* w) const {
  w->pod(kMagic);
  const XSpaceImport& c = ctx_;
  w->pod(c.events), w->pod(c.host_planes), w->pod(c.pool_pid_offset), w->pod(c.plane_base);
  w->pod(static_cast<uint64_t>(c.process_plane.size()));
  for (const auto& [key, plane] : c.process_plane) w->str(key), w->pod(plane);
  w->pod(static_cast<uint64_t>(c.derived.size()));
  for (const auto& [process, track] : c.derived) w->str(process), w->str(track);
  w->pod(c.aggregated), w->pod(c.malformed), w->pod(c.malformed_at), w->str(c.malformed_why);
  w->pod(c.missing_meta);
  w->pod(static_cast<uint64_t>(c.sections.size()));
  for (const XSpaceImport::Section& s : c.sections)
    w->pod(s.process), w->pod(s.file), w->str(s.base), w->pod(s.sort), w->pod(s.host),
        w->pod(s.pool);
  w->pod(static_cast<uint64_t>(c.hlo_symbols.by_program.size()));
  for (const auto& [program, table] : c.hlo_symbols.by_program) {
    w->pod(program), w->pod(static_cast<uint64_t>(table.size()));
    for (const auto& [instr, sym] : table) w->pod(instr), w->pod(sym);
  }
  w->pod(static_cast<uint64_t>(c.hlo_symbols.program_of_module.size()));
  for (const auto& [module, program] : c.hlo_symbols.program_of_module)
    w->pod(module), w->pod(program);
  pending(w, c.pending);
  tables(w, *tables_);
  w->pod(static_cast<uint64_t>(store_->planes.size()));
  for (const SourcePlane& p : store_->planes) {
    w->str(p.name), w->pod(static_cast<uint64_t>(p.lines.size()));
    for (const SourcePlane::Line& l : p.lines) w->str(l.name), w->pod(l.events);
  }
  w->pod(state_), w->pod(pos_), w->pod(slice_begin_), w->pod(field_start_), w->pod(head_);
  w->pod(number_), w->pod(body_.len()), w->pod(body_.at()), w->vec(body_.partial());
  w->pod(stopped_);
  builder_.encode_part(w);
}

bool XPlaneImporter::decode(SliceReader* r) {
  if (r->get<uint32_t>() != kMagic) return false;
  XSpaceImport& c = ctx_;
  r->pod(&c.events), r->pod(&c.host_planes), r->pod(&c.pool_pid_offset), r->pod(&c.plane_base);
  for (size_t n = r->count(12); n > 0; --n) {
    std::string key;
    r->str(&key);
    c.process_plane[key] = r->get<uint32_t>();
  }
  c.derived.resize(r->count(16));
  for (auto& [process, track] : c.derived) r->str(&process), r->str(&track);
  r->pod(&c.aggregated), r->pod(&c.malformed), r->pod(&c.malformed_at), r->str(&c.malformed_why);
  r->pod(&c.missing_meta);
  c.sections.resize(r->count(36));
  for (XSpaceImport::Section& s : c.sections)
    r->pod(&s.process), r->pod(&s.file), r->str(&s.base), r->pod(&s.sort), r->pod(&s.host),
        r->pod(&s.pool);
  for (size_t n = r->count(16); n > 0; --n) {
    auto& table = c.hlo_symbols.by_program[r->get<int64_t>()];
    for (size_t k = r->count(12); k > 0; --k) {
      const auto instr = r->get<StrId>();
      table[instr] = r->get<HloSymbol>();
    }
  }
  for (size_t n = r->count(12); n > 0; --n) {
    const auto module = r->get<StrId>();
    c.hlo_symbols.program_of_module[module] = r->get<int64_t>();
  }
  if (!pending(r, &c.pending)) return false;
  tables(r, tables_.get());
  store_->planes.resize(r->count(16));
  for (SourcePlane& p : store_->planes) {
    r->str(&p.name);
    p.lines.resize(r->count(16));
    for (SourcePlane::Line& l : p.lines) r->str(&l.name), r->pod(&l.events);
  }
  r->pod(&state_), r->pod(&pos_), r->pod(&slice_begin_), r->pod(&field_start_), r->pod(&head_);
  uint64_t body_len = 0, body_at = 0;
  std::vector<uint8_t> partial;
  r->pod(&number_), r->pod(&body_len), r->pod(&body_at), r->vec(&partial), r->pod(&stopped_);
  if (!r->ok() || static_cast<uint8_t>(state_) > static_cast<uint8_t>(State::kBody) ||
      partial.size() > body_len)
    return false;
  body_.restore(body_len, body_at, first_reserve(body_len, body_at), std::move(partial));
  return builder_.decode_part(r) && r->at_end();
}

}  // namespace strata::xplane_impl

namespace strata {

std::vector<uint8_t> XSpaceSlice::encode() const {
  SliceWriter w;
  static_cast<const xplane_impl::XPlaneImporter&>(*importer_).encode(&w);
  return std::move(w.out());
}

std::unique_ptr<XSpaceSlice> XSpaceSlice::decode(const uint8_t* data, size_t n) {
  std::unique_ptr<XSpaceSlice> s = later(XSpaceSliceSpec{});
  SliceReader r(data, n);
  if (!static_cast<xplane_impl::XPlaneImporter&>(*s->importer_).decode(&r)) return nullptr;
  return s;
}

}  // namespace strata
