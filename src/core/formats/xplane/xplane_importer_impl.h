// XSpace framing. An XSpace is one message whose fields are its planes (field 1), the
// profiler's errors/warnings (2, 3) and hostnames (4). This importer reads the top-level field
// headers as the chunks arrive and collects each plane's bytes; a complete plane is imported at
// once (xplane_plane.cc) and its bytes are freed. A plane that lies within one chunk is parsed
// in place without a copy.
//
// Memory: the store plus at most one plane's bytes (XProf writes a plane's metadata after its
// lines, so its events cannot be named before the plane has been read). Peak ≈ store + the
// largest plane, under the 1.5 × file + index budget; when the file's size is known (not
// compressed) the plane buffer is allocated once at its exact size.
//
// Damage: a plane whose length prefix is intact but whose content is corrupt loses only the
// data after the damage (xplane_plane.cc); a corrupt top-level header stops the import there and
// keeps the planes before it; a file cut inside a plane keeps that plane's complete lines and
// events. Every message names the byte offset.
//
// The importer's class, shared with the sliced path (xplane_sliced.cc): a later slice is an
// importer that starts at a top-level field of the file, and the first one absorbs it.
#pragma once
#include <algorithm>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

#include "core/base/text.h"
#include "core/formats/importer.h"
#include "core/formats/protobuf/field_body.h"
#include "core/formats/protobuf/wire.h"
#include "core/formats/xplane/xplane_plane.h"
#include "core/store/slice_codec.h"
#include "core/store/trace_builder.h"
#include "core/store/trace_store.h"

namespace strata::xplane_impl {

// More than any browser (4 GB of wasm memory) or sane machine loads: a corrupt length.
constexpr uint64_t kMaxField = uint64_t{1} << 36;

class XPlaneImporter final : public Importer {
 public:
  explicit XPlaneImporter(TraceStore* store)
      : store_(store), builder_(store), tables_(std::make_shared<XSpaceTables>()) {
    ctx_.builder = &builder_;
    ctx_.tables = tables_.get();
    ctx_.summary = &store->planes;
    if (!store->files.empty()) {
      store->files[0].format = "xplane";
      if (store->files[0].compression == "none") known_size_ = store->files[0].bytes;
    }
  }

  void feed(const uint8_t* data, size_t n) override {
    while (n > 0 && !stopped_) {
      if (state_ == State::kHeader) {
        size_t used = header(data, n);
        data += used, n -= used, pos_ += used;
      } else {
        size_t used = body(data, n);
        data += used, n -= used, pos_ += used;
      }
    }
  }

  void finish() override {
    if (finished_) return;
    finished_ = true;
    if (ctx_.pending.first_line == 0) finish_pending_plane(&ctx_);  // a part never came
    end_file();
    body_.release();
    report();
    if (total_bytes_ == 0) {
      fail(ctx_.file ? "the files are empty" : "the file is empty");
    } else if (ctx_.events == 0 && !store_->errors.empty()) {
      fail("no event could be read from this XSpace: " + store_->errors.front());
    } else if (ctx_.events == 0) {
      builder_.warning("the profile contains no events");
    }
    if (ctx_.file > 0) name_hosts();
    builder_.finish();
    index_tables();
    store_->xspace = tables_;
  }

  // The next host's XSpace: framing starts over; the store, the tables and the pid
  // bookkeeping go on, so all hosts share one time axis (XEvent times are absolute).
  bool next_file() override {
    end_file();
    ctx_.src_base += pos_;
    ++ctx_.file;
    if (ctx_.file < store_->files.size()) store_->files[ctx_.file].stream_base = ctx_.src_base;
    state_ = State::kHeader;
    pos_ = field_start_ = 0;
    head_.reset();
    body_.reset();
    number_ = 0;
    stopped_ = false;
    known_size_ = 0;  // its compression is not known yet
    return true;
  }

  // The sliced path (xplane_sliced.cc). A later slice: its bytes start at file offset `base`, a
  // top-level field, after `planes_before` planes.
  void begin_slice(uint64_t base, uint32_t planes_before);
  // Lines [lo, hi) of the plane whose message is [plane, plane + n) at file offset `body`, one
  // part of a plane cut at its lines (import_xplane_part); the bytes fed next start at `end`.
  void plane_part(const uint8_t* plane, size_t n, uint64_t body, uint32_t lo, uint32_t hi,
                  uint64_t end);
  // A plane of an earlier slice whose HLO symbols the later planes use (read_xplane_symbols).
  void add_context(const uint8_t* data, size_t n, uint64_t base);
  // The bytes fed so far end between two top-level fields, with nothing stopped and no plane
  // waiting for its later lines.
  bool at_field_boundary() const;
  // Whether `later` (a slice that starts where this one ends) can be absorbed exactly: it
  // starts at this one's framing position after as many planes, and makes no section key this
  // one has made (a plane name repeated across the cut would be de-duplicated in one pass);
  // or it goes on with the lines of the plane this one ends inside, its sections keyed as here.
  bool can_absorb(const XPlaneImporter& later) const;
  // `later`'s store, tables, counts and framing appended to this one's (it is left empty).
  void absorb(XPlaneImporter& later);
  const TraceStore* store() const { return store_; }
  // A later slice as bytes and back (xplane_slice_codec.cc); decode fills a fresh importer.
  void encode(SliceWriter* w) const;
  bool decode(SliceReader* r);

  bool failed() const override { return failed_; }
  const std::string& failure() const override { return failure_; }
  uint64_t records() const override { return ctx_.events; }

 private:
  enum class State { kHeader, kBody };

  // The cut plane `later` hands over: its first part (this one takes it on) or more lines of
  // the plane this one is in; the plane-wide end runs once its last line is in.
  void absorb_pending(PendingPlane& next, const TraceStore& src,
                      const std::function<StrId(StrId)>& str);

  // End of one file's bytes: a cut inside it is reported, and when several files load
  // together, the messages about this one name it (their byte offsets are in this file).
  void end_file() {
    if (!stopped_ && state_ == State::kBody) {
      // Cut inside a field: keep what the plane has.
      std::string what = number_ == 1 ? "plane " + std::to_string(store_->planes.size() + 1)
                                      : "field " + std::to_string(number_);
      if (number_ == 1) {
        std::string name =
            import_xplane(&ctx_, body_.partial().data(), body_.partial().size(), body_.at(), true);
        if (!name.empty()) what += " (" + sanitize_utf8(name) + ")";
      }
      builder_.error("the file ends at byte " + std::to_string(pos_) + " inside " + what +
                     ", which declares " + std::to_string(body_.len()) + " bytes from byte " +
                     std::to_string(body_.at()) +
                     ": the file is cut off (or that length is corrupt); what was read before "
                     "the cut is kept");
    } else if (!stopped_ && head_.pending()) {
      builder_.error("the file ends at byte " + std::to_string(pos_) +
                     " in the middle of a field header: the file is cut off");
    }
    total_bytes_ += pos_;
    const bool several = ctx_.file > 0 || store_->files.size() > 1;
    if (several && ctx_.file < store_->files.size()) {
      const std::string prefix = store_->files[ctx_.file].name + ": ";
      for (size_t i = errors_mark_; i < store_->errors.size(); ++i)
        store_->errors[i].insert(0, prefix);
      for (size_t i = warnings_mark_; i < store_->warnings.size(); ++i)
        store_->warnings[i].insert(0, prefix);
    }
    errors_mark_ = store_->errors.size();
    warnings_mark_ = store_->warnings.size();
  }

  // Several hosts: each section is named "<host> <plane or pool>" and the hosts' sections
  // follow each other, in the order the files were given. The host is the file's name
  // without ".xplane.pb" (XProf names them <host>.xplane.pb).
  // Two files of the same name (runs in different folders) become "<host>" and "<host> #2".
  void name_hosts() {
    std::vector<std::string> hosts;
    for (const SourceFile& f : store_->files) {
      std::string host = f.name;
      for (const char* ext : {".gz", ".zst", ".pb", ".xplane"})
        if (host.size() > std::strlen(ext) &&
            host.compare(host.size() - std::strlen(ext), std::string::npos, ext) == 0)
          host.resize(host.size() - std::strlen(ext));
      host = sanitize_utf8(host);
      const std::string base = host;
      for (int k = 2; std::find(hosts.begin(), hosts.end(), host) != hosts.end(); ++k)
        host = base + " #" + std::to_string(k);
      hosts.push_back(host);
    }
    for (const XSpaceImport::Section& s : ctx_.sections) {
      const std::string host = s.file < hosts.size() ? hosts[s.file] : "host";
      builder_.set_process_name(s.process, builder_.strings().intern(host + " " + s.base));
      builder_.set_process_sort_index(s.process,
                                      static_cast<int64_t>(s.file) * 1000000000 + s.sort);
    }
  }

  void fail(std::string message) {
    if (failed_) return;
    failed_ = true;
    failure_ = std::move(message);
  }

  // A top-level header that no encoder writes: nothing after it can be framed.
  void corrupt(uint64_t at, const std::string& why) {
    stopped_ = true;
    builder_.error("the XSpace is corrupt at byte " + std::to_string(at) + " (" + why + "): " +
                   (store_->planes.empty()
                        ? std::string("not a valid xplane.pb file")
                        : plural(store_->planes.size(), "plane before it is kept",
                                 "planes before it are kept") +
                              ", what follows is lost"));
  }

  // Reads a top-level field header (tag, and the length or value) from the stashed bytes plus
  // `data`. Returns how many bytes of `data` it used.
  size_t header(const uint8_t* data, size_t n) {
    if (!head_.pending()) field_start_ = pos_;
    wire::FieldHeader h;
    size_t from_data = 0;
    using R = wire::HeaderReader::Result;
    const R r = head_.read(data, n, &h, &from_data, [](const wire::FieldHeader& f) {
      return (f.tag >> 3) != 0 && (f.tag >> 3) <= 0x1fffffff;
    });
    switch (r) {
      case R::kRejected:
        corrupt(field_start_, "field number " + std::to_string(h.tag >> 3));
        return n;
      case R::kBadType:
        corrupt(field_start_,
                "wire type " + std::to_string(h.type) + " of field " + std::to_string(h.tag >> 3));
        return n;
      case R::kLongVarint:
        corrupt(field_start_, "a varint longer than 10 bytes");
        return n;
      case R::kMore:
        return from_data;  // wait for more bytes
      case R::kHeader:
        break;
    }
    const uint8_t type = h.type;
    const uint64_t len = h.len;
    number_ = h.number;
    if (number_ == 1 && type != wire::kLen) {
      corrupt(field_start_, "the planes field is not length-delimited");
      return n;
    }
    if (type == wire::kVarint) return from_data;  // an unknown scalar field: nothing to keep
    const uint64_t at = pos_ + from_data;
    if (len > kMaxField) {
      corrupt(field_start_,
              "field " + std::to_string(number_) + " declares " + std::to_string(len) + " bytes");
      return n;
    }
    body_.start(len, at, first_reserve(len, at));
    if (len == 0)
      field(data, 0);
    else
      state_ = State::kBody;
    return from_data;
  }

  // Collects the current field's bytes; imports it when complete.
  size_t body(const uint8_t* data, size_t n) {
    return body_.take(data, n, [&](const uint8_t* b, size_t len) {
      field(b, len);
      body_.release();  // freed: the store grows on while later planes load
      state_ = State::kHeader;
    });
  }

  // The plane buffer at its final size when the file's size is known; a bounded guess when it
  // is not (a compressed file: the declared length may be corrupt).
  uint64_t first_reserve(uint64_t len, uint64_t at) const {
    return known_size_ > at ? std::min(len, known_size_ - at)
                            : std::min<uint64_t>(len, uint64_t{1} << 30);
  }

  void field(const uint8_t* data, size_t n) {
    auto text = [&]() {
      return sanitize_utf8(std::string_view(reinterpret_cast<const char*>(data), n));
    };
    switch (number_) {
      case 1:
        import_xplane(&ctx_, data, n, body_.at(), false);
        break;
      case 2:
        builder_.error("the profiler reported: " + text());
        break;
      case 3:
        builder_.warning("the profiler reported: " + text());
        break;
      case 4:
        tables_->hostnames.push_back(text());
        break;
      default:
        break;  // unknown fields are allowed
    }
  }

  void report() {
    if (ctx_.malformed)
      builder_.error(plural(ctx_.malformed, "malformed XEvent was", "malformed XEvents were") +
                     " skipped (first at byte " + std::to_string(ctx_.malformed_at) + ": " +
                     ctx_.malformed_why + ")");
    if (ctx_.aggregated)
      builder_.warning(plural(ctx_.aggregated, "aggregated XEvent", "aggregated XEvents") +
                       " (num_occurrences, no start time) are not shown on the timeline");
    if (ctx_.missing_meta)
      builder_.warning(plural(ctx_.missing_meta, "XEvent refers", "XEvents refer") +
                       " to event metadata the plane does not have; named by its id");
  }

  // The details pane goes from an event's process to its plane and asks whether its track is
  // derived: both in the store's final order.
  void index_tables() {
    const TraceStore& s = *store_;
    // Planes are read in file order, so the locators come sorted unless a file repeats one.
    auto& full = tables_->full_names;
    if (!std::is_sorted(full.begin(), full.end())) std::sort(full.begin(), full.end());
    tables_->plane_of_process.assign(s.processes.size(), kNone);
    for (size_t p = 0; p < s.processes.size(); ++p) {
      auto it = ctx_.process_plane.find(s.processes[p].key);
      if (it != ctx_.process_plane.end()) tables_->plane_of_process[p] = it->second;
    }
    std::unordered_set<std::string> derived;
    for (const auto& [process, track] : ctx_.derived) derived.insert(process + '\n' + track);
    tables_->derived_track.assign(s.tracks.size(), 0);
    for (size_t t = 0; t < s.tracks.size(); ++t) {
      const Track& tr = s.tracks[t];
      if (derived.count(s.processes[tr.process].key + '\n' + tr.key)) tables_->derived_track[t] = 1;
    }
  }

  TraceStore* store_;
  TraceBuilder builder_;
  std::shared_ptr<XSpaceTables> tables_;
  XSpaceImport ctx_;
  uint64_t known_size_ = 0;  // the file's size when known (uncompressed), else 0

  State state_ = State::kHeader;
  uint64_t pos_ = 0;          // file offset of the next byte fed
  uint64_t slice_begin_ = 0;  // a later slice's first byte (begin_slice)
  uint64_t field_start_ = 0;  // of the current top-level field's tag
  wire::HeaderReader head_;   // a header split across chunks
  uint32_t number_ = 0;
  wire::FieldBody body_;  // the field being read (copied when split across chunks)

  uint64_t total_bytes_ = 0;                    // over all files
  size_t errors_mark_ = 0, warnings_mark_ = 0;  // the current file's first messages
  bool stopped_ = false, finished_ = false, failed_ = false;
  std::string failure_;
};

}  // namespace strata::xplane_impl
