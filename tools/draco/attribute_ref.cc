// Prints, for each Draco stream named on the command line, one line per
// attribute as Google's Draco library (Debian's libdraco-dev) decodes it:
//   name unique_id attribute_type data_type components points fnv1a64
// where the hash runs over every point's value in point order (the bytes of
// the attribute's data type, little-endian, dequantized floats as the library
// gives them). GENERIC attributes (glTF's JOINTS_n and WEIGHTS_n), which
// draco_decoder's PLY and OBJ leave out, are checked this way
// (make_attribute_ref.sh builds and runs it; draco_test compares).
#include <draco/compression/decode.h>
#include <draco/core/decoder_buffer.h>
#include <draco/mesh/mesh.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

uint64_t Fnv(uint64_t h, const uint8_t* p, size_t n) {
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 0x100000001b3ull;
  return h;
}

std::string BaseName(const std::string& path) {
  size_t slash = path.rfind('/');
  std::string b = slash == std::string::npos ? path : path.substr(slash + 1);
  size_t dot = b.rfind('.');
  return dot == std::string::npos ? b : b.substr(0, dot);
}

}  // namespace

int main(int argc, char** argv) {
  for (int i = 1; i < argc; ++i) {
    std::ifstream f(argv[i], std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
    draco::DecoderBuffer buffer;
    buffer.Init(bytes.data(), bytes.size());
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok()) {
      fprintf(stderr, "%s: %s\n", argv[i], decoded.status().error_msg());
      return 1;
    }
    std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    const std::string name = BaseName(argv[i]);
    for (int32_t a = 0; a < mesh->num_attributes(); ++a) {
      const draco::PointAttribute* att = mesh->attribute(a);
      const size_t size = (size_t)att->num_components() * draco::DataTypeLength(att->data_type());
      uint64_t h = 0xcbf29ce484222325ull;
      for (uint32_t p = 0; p < mesh->num_points(); ++p) {
        const draco::AttributeValueIndex v = att->mapped_index(draco::PointIndex(p));
        h = Fnv(h, att->GetAddress(v), size);
      }
      printf("%s %u %d %d %d %u %016llx\n", name.c_str(), att->unique_id(), (int)att->attribute_type(),
             (int)att->data_type(), (int)att->num_components(), mesh->num_points(), (unsigned long long)h);
    }
  }
  return 0;
}
