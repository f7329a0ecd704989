// Engine::open_bundle_lazy: a tile bundle too big to read whole, opened by its header, index and
// search blob (three reads, whatever the bundle's size). The store installed stands for the
// bundle's tables (names, processes, tracks, series) without events; the BundleSession answers
// the timeline from the tiles the worker fetches for it.
#include <cstring>
#include <memory>
#include <new>
#include <vector>

#include "core/bundle/bundle_reader.h"
#include "core/formats/sqlite/byte_reader.h"
#include "engine/bundle_open.h"
#include "engine/bundle_session.h"
#include "engine/engine.h"
#include "engine/lazy_tiles.h"
#include "protocol/view_messages.h"

namespace strata {

namespace {

bool read_at(ByteReader* r, uint64_t offset, uint64_t n, std::vector<uint8_t>* out) {
  if (offset > r->size() || n > r->size() - offset) return false;
  out->resize(n);
  return n == 0 || r->read(offset, out->data(), n);
}

}  // namespace

bool read_bundle_index(ByteReader* reader, bundle::Header* h, bundle::Manifest* m,
                       bundle::SearchIndex* search, std::string* error) {
  using namespace bundle;
  std::vector<uint8_t> bytes;
  bool ok = read_at(reader, 0, kHeaderBytes, &bytes);
  if (!ok) *error = "not a Strata bundle (shorter than its header)";
  ok = ok && parse_header(bytes.data(), bytes.size(), h, error);
  if (ok && !read_at(reader, h->index_offset, h->index_length, &bytes)) bytes.clear();
  ok = ok && parse_index(*h, bytes.data(), bytes.size(), m, error);
  if (ok && !read_at(reader, h->search_offset, h->search_length, &bytes)) bytes.clear();
  return ok && parse_search(*h, bytes.data(), bytes.size(), m->strings.size(), search, error);
}

bool Engine::open_bundle_lazy(std::string_view name, ByteReader* reader) {
  using namespace bundle;
  load_begin(name, reader->size());
  importer_.reset();  // no stream to feed
  preview_importer_.reset();
  preview_store_.reset();
  std::string error;
  Header h;
  Manifest m;
  SearchIndex search;
  std::unique_ptr<BundleSession> session;
  try {
    if (!read_bundle_index(reader, &h, &m, &search, &error)) {
      load_fail(error);
      return false;
    }
    session = std::make_unique<BundleSession>(std::move(m), std::move(search), reader->size());
  } catch (const std::bad_alloc&) {
    load_fail("out of memory while reading the bundle's index");
    return false;
  }
  std::unique_ptr<TraceStore> tables = session->tables(&error);
  if (!tables) {
    load_fail(error);
    return false;
  }
  tables->notes.insert(tables->notes.begin(), kLazyNote);
  loading_.reset();
  loaded_bytes_ = reader->size();
  install(std::move(tables), Pyramid{});
  bundle_ = std::make_unique<BundleTiles>(std::move(session));
  last_error_.clear();
  session_errors_.clear();
  loading_name_.clear();
  return true;
}

std::vector<uint32_t> Engine::bundle_wanted(const uint8_t* request, size_t n) const {
  ViewportQuery q;
  if (!bundle_ || !view_query(request, n, &q)) return {};
  std::vector<uint32_t> out = bundle_->wanted(q);
  proto::ViewRequestBody rq;
  std::memcpy(&rq, request + sizeof(proto::Header), sizeof rq);
  if (rq.flags & proto::kWantFlows) {
    const std::vector<uint32_t> flows = bundle_->flows_wanted(
        q.origin + static_cast<TimeNs>(q.start), q.origin + static_cast<TimeNs>(q.end));
    out.insert(out.end(), flows.begin(), flows.end());
  }
  return out;
}

}  // namespace strata
