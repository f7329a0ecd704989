// Compressed packet bundles and legacy async events of the Perfetto decoder.
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <string>

#include "core/formats/perfetto/perfetto_decoder.h"
#include "core/formats/perfetto/perfetto_fields.h"

namespace strata::perfetto {

namespace {

// A bundle holds one trace-buffer chunk's packets (Perfetto bundles up to about 512 KB of
// them); more than this inflated is damage, or a bomb.
constexpr size_t kMaxBundleBytes = size_t{64} << 20;

// Inflates zlib (or gzip) bytes into `out`; false, with what it kept, on damage or past the cap.
bool inflate_bundle(const uint8_t* p, size_t n, std::vector<uint8_t>* out, std::string* why) {
  out->clear();
  z_stream z{};
  if (inflateInit2(&z, 32 + MAX_WBITS) != Z_OK) {
    *why = "zlib could not start";
    return false;
  }
  z.next_in = const_cast<Bytef*>(p);
  z.avail_in = static_cast<uInt>(n);
  int rc = Z_OK;
  while (rc == Z_OK) {
    const size_t had = out->size();
    if (had >= kMaxBundleBytes) {
      *why = "a compressed packet bundle inflates past " + std::to_string(kMaxBundleBytes >> 20) +
             " MB";
      inflateEnd(&z);
      return false;
    }
    out->resize(std::min(kMaxBundleBytes, std::max<size_t>(had * 2, n * 4 + 4096)));
    z.next_out = out->data() + had;
    z.avail_out = static_cast<uInt>(out->size() - had);
    rc = inflate(&z, Z_NO_FLUSH);
    out->resize(out->size() - z.avail_out);
    if (rc == Z_BUF_ERROR && z.avail_in == 0) break;  // input ended before the stream did
    if (rc == Z_BUF_ERROR) rc = Z_OK;                 // output full: grow and go on
  }
  inflateEnd(&z);
  if (rc != Z_STREAM_END) {
    *why = "a compressed packet bundle does not inflate (" +
           std::string(rc == Z_DATA_ERROR ? "corrupt deflate data" : "cut short") + ")";
    return false;
  }
  return true;
}

}  // namespace

void PacketDecoder::bundle(const uint8_t* p, size_t n, uint64_t offset) {
  std::string why;
  std::vector<uint8_t> bytes;
  bytes.swap(inflated_);  // reuses the last bundle's buffer
  const bool whole = inflate_bundle(p, n, &bytes, &why);
  // What inflated is a Trace: `repeated TracePacket packet = 1`.
  wire::Reader r(bytes.data(), bytes.size());
  wire::Field f;
  wire::Status st;
  in_bundle_ = true;
  while ((st = r.next(&f)) == wire::Status::kOk)
    if (f.number == trace::kPacket && f.type == wire::kLen) packet(f.data, f.size, offset);
  in_bundle_ = false;
  if (whole && st != wire::Status::kEnd)
    why = std::string("the packets of a compressed bundle: ") + r.why;
  if ((!whole || st != wire::Status::kEnd) && malformed_++ == 0) {
    malformed_at_ = offset;
    malformed_why_ = why;
  }
  bytes.clear();
  inflated_.swap(bytes);
}

void PacketDecoder::legacy_async(const Sequence& seq, uint64_t uuid, int64_t pid_override,
                                 char id_kind, uint64_t id, std::string_view scope,
                                 const Pending& e) {
  uint32_t process = kNone;
  if (pid_override >= 0) {
    process = process_of(pid_override);
  } else {
    auto it = uuid != 0 ? tracks_.find(uuid) : tracks_.end();
    if (it != tracks_.end() && it->second.described) {
      const TrackInfo& t = it->second;
      process = t.kind == TrackKind::kProcess || t.kind == TrackKind::kThread ? process_of(t.pid)
                                                                              : parent_process(t);
    } else if (seq.has_thread) {
      process = process_of(seq.pid);
    }
  }
  if (process == kNone) process = tracks_process();
  std::string key("legacy async");
  key.append(reinterpret_cast<const char*>(&e.cat), sizeof(e.cat));
  key.append(scope);
  key.push_back('\0');
  key.push_back(id_kind);
  key.append(reinterpret_cast<const char*>(&id), sizeof(id));
  if (id_kind != 'g') key.append(reinterpret_cast<const char*>(&process), sizeof(process));
  b_->add_async(b_->async_group(key, false), process, e.what, e.ts, e.name, e.cat, e.src_offset,
                e.src_len);
  b_->note_time(e.ts);  // async pairs are laid out at the end: the trace spans their ends now
}

}  // namespace strata::perfetto
