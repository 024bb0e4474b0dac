// import.h against ufbx's references (../shared/data/fbx, its README): the
// files whose .obj is the scene as loaded (no animation time) give, for
// every mesh the .obj names as a group, its control points where ufbx puts
// them: skinned meshes through maniBuildFbxSkeleton, maniBuildFbxSkin,
// maniBuildFbxInfluences and Maul's own skinning (skinning.h) at the rest
// pose, placed by maniFbx_GetSkeletonPlacement; other meshes by their model
// skeleton's rest and placement times the geometric transform the test
// reads from the model's properties. Compared as sets of points within the .obj's
// tolerance (0.001 per coordinate unless a "# ufbx:tolerance=" line says
// otherwise). SKIPs when ../shared/data is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "lib/anim/src/import/fbx/fbx_internal.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "maul/anim/clip.h"
#include "maul/anim/import.h"
#include "maul/anim/pose.h"
#include "maul/anim/skin.h"
#include "maul/anim/skinning.h"
#include "lib/anim/test/fixtures/data_testing.h"

namespace {

bool ReadText(const std::string& path, std::string* out) {
  FILE* f = fopen(path.c_str(), "rb");
  if (f == nullptr) return false;
  out->clear();
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) out->append(buf, n);
  fclose(f);
  return true;
}

std::string SharedData() { return MaulSharedData(); }

struct P3 {
  double x, y, z;
};

struct Obj {
  std::map<std::string, std::vector<P3>> groups;
  double tolerance = 0.001;
  bool transformSkin = false;  // "# ufbx:transform_skin"
  double positionScale = 1.0;  // read, not applied: the two .obj files giving 0.1 (maya_poses,
                               // maya_advanced_skinned_pivot) hold the file's own units, as the rest do
};

// Groups own faces; a group's points are the vertices its faces use (a
// group line naming several, "g Parent Child", is the last one's).
Obj ParseObj(const std::string& text) {
  Obj o;
  std::vector<P3> vertices;
  std::map<std::string, std::vector<bool>> used;
  std::string group;
  size_t at = 0;
  while (at < text.size()) {
    size_t end = text.find('\n', at);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.rfind("# ufbx:tolerance=", 0) == 0) o.tolerance = atof(line.c_str() + 17);
    if (line.rfind("# ufbx:transform_skin", 0) == 0) o.transformSkin = true;
    if (line.rfind("# ufbx:position_scale=", 0) == 0) o.positionScale = atof(line.c_str() + 22);
    if (line.rfind("g ", 0) == 0) group = line.substr(line.rfind(' ') + 1);
    if (line.rfind("v ", 0) == 0) {
      P3 p;
      if (sscanf(line.c_str() + 2, "%lf %lf %lf", &p.x, &p.y, &p.z) == 3) vertices.push_back(p);
    }
    if (line.rfind("f ", 0) == 0) {
      std::vector<bool>& mine = used[group];
      for (size_t k = 2; k < line.size();) {
        long index = strtol(line.c_str() + k, nullptr, 10);
        if (index < 0) index += (long)vertices.size() + 1;
        if (index >= 1) {
          if (mine.size() < (size_t)index) mine.resize((size_t)index, false);
          mine[(size_t)index - 1] = true;
        }
        size_t space = line.find(' ', k);
        if (space == std::string::npos) break;
        k = space + 1;
      }
    }
  }
  for (auto& g : used)
    for (size_t i = 0; i < g.second.size() && i < vertices.size(); i++)
      if (g.second[i]) o.groups[g.first].push_back(vertices[i]);
  return o;
}

// The record holding a mesh model's control points: its Geometry (7.x), else itself.
uint32_t MeshVertices(const maniFbx* f, uint32_t model) {
  uint32_t object = f->modelObject != nullptr ? f->modelObject[model] : MANI_FBX_NONE;
  for (uint32_t l = 0; l < f->linkCount && object != MANI_FBX_NONE; l++) {
    if (f->links[l].parent != object) continue;
    uint32_t node = f->objects[f->links[l].child];
    uint32_t v = mani_FbxFind(f, node, "Vertices");
    const mani_FbxNode& n = f->nodes[node];
    if (n.nameLength == 8 && memcmp(f->bytes + n.nameOffset, "Geometry", 8) == 0 && v != MANI_FBX_NONE) return v;
  }
  return mani_FbxFind(f, f->models[model].node, "Vertices");
}

std::vector<float> ControlPoints(const maniFbx* f, uint32_t node) {
  uint32_t n = mani_FbxArrayCount(f, node);
  std::vector<double> d(n);
  EXPECT_EQ(mani_FbxReadArray(f, node, d.data(), n).result, mani_success);
  return std::vector<float>(d.begin(), d.begin() + n / 3 * 3);
}

void Apply(const maniAffine& a, const float* v, double* out) {
  out[0] = (double)a.columns[0].x * v[0] + (double)a.columns[1].x * v[1] + (double)a.columns[2].x * v[2] + a.columns[3].x;
  out[1] = (double)a.columns[0].y * v[0] + (double)a.columns[1].y * v[1] + (double)a.columns[2].y * v[2] + a.columns[3].y;
  out[2] = (double)a.columns[0].z * v[0] + (double)a.columns[1].z * v[1] + (double)a.columns[2].z * v[2] + a.columns[3].z;
}

maniAffine FromTransform(const maniTransform& t) {
  // the affine of T R S, as the test writes it (quaternion to matrix)
  double x = t.rotation.x, y = t.rotation.y, z = t.rotation.z, w = t.rotation.w;
  double r[3][3] = {{1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)},
                    {2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)},
                    {2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)}};
  double s[3] = {t.scale.x, t.scale.y, t.scale.z};
  maniAffine a;
  a.columns[0] = {(float)(r[0][0] * s[0]), (float)(r[1][0] * s[0]), (float)(r[2][0] * s[0])};
  a.columns[1] = {(float)(r[0][1] * s[1]), (float)(r[1][1] * s[1]), (float)(r[2][1] * s[1])};
  a.columns[2] = {(float)(r[0][2] * s[2]), (float)(r[1][2] * s[2]), (float)(r[2][2] * s[2])};
  a.columns[3] = {t.translation.x, t.translation.y, t.translation.z};
  return a;
}

maniAffine Compose(const maniAffine& a, const maniAffine& b) {
  maniAffine r;
  for (int c = 0; c < 4; c++) {
    float v[3] = {b.columns[c].x, b.columns[c].y, b.columns[c].z};
    double o[3];
    Apply(a, v, o);
    if (c < 3) {
      o[0] -= a.columns[3].x;
      o[1] -= a.columns[3].y;
      o[2] -= a.columns[3].z;
    }
    r.columns[c] = {(float)o[0], (float)o[1], (float)o[2]};
  }
  return r;
}

// A model's geometric transform Tg Rg Sg (Euler XYZ in degrees), read by the
// test from its properties, as an affine in file axes and units.
maniAffine Geometric(const maniFbx* f, uint32_t model) {
  uint32_t block = mani_FbxPropertiesOf(f, f->models[model].node);
  double v[3][3] = {{0, 0, 0}, {0, 0, 0}, {1, 1, 1}};
  const char* names[3] = {"GeometricTranslation", "GeometricRotation", "GeometricScaling"};
  for (int k = 0; k < 3; k++) {
    uint32_t at = 0;
    uint32_t p = mani_FbxFindSetting(f, block, names[k], &at);
    if (p == MANI_FBX_NONE) continue;
    for (int i = 0; i < 3; i++) EXPECT_TRUE(mani_FbxPropDouble(f, mani_FbxGetProp(f, p, at + i), &v[k][i]));
  }
  double c[3], s[3];
  for (int i = 0; i < 3; i++) {
    c[i] = std::cos(v[1][i] * M_PI / 180.0);
    s[i] = std::sin(v[1][i] * M_PI / 180.0);
  }
  // R = Rz Ry Rx
  double r[3][3] = {{c[1] * c[2], s[0] * s[1] * c[2] - c[0] * s[2], c[0] * s[1] * c[2] + s[0] * s[2]},
                    {c[1] * s[2], s[0] * s[1] * s[2] + c[0] * c[2], c[0] * s[1] * s[2] - s[0] * c[2]},
                    {-s[1], s[0] * c[1], c[0] * c[1]}};
  maniAffine a;
  for (int col = 0; col < 3; col++)
    a.columns[col] = {(float)(r[0][col] * v[2][col]), (float)(r[1][col] * v[2][col]), (float)(r[2][col] * v[2][col])};
  a.columns[3] = {(float)v[0][0], (float)v[0][1], (float)v[0][2]};
  return a;
}

// Options keeping the file's axes and units (the .obj's).
maniFbxOptions FileUnits(const maniFbx* f) {
  maniFbxSettings s;
  EXPECT_EQ(maniFbx_ReadSettings(f, &s), mani_success);
  maniFbxOptions o = maniDefaultFbxOptions();
  o.up = s.up;
  o.front = s.front;
  o.unitScale = 1.0f / s.unitMetres;
  return o;
}

// The inverse of an affine (its 3x3 by cofactors, in binary64).
maniAffine Inverse(const maniAffine& a) {
  const double m[3][3] = {{a.columns[0].x, a.columns[1].x, a.columns[2].x},
                          {a.columns[0].y, a.columns[1].y, a.columns[2].y},
                          {a.columns[0].z, a.columns[1].z, a.columns[2].z}};
  double c[3][3];
  for (int r = 0; r < 3; r++)
    for (int k = 0; k < 3; k++)
      c[k][r] = m[(r + 1) % 3][(k + 1) % 3] * m[(r + 2) % 3][(k + 2) % 3] -
                m[(r + 1) % 3][(k + 2) % 3] * m[(r + 2) % 3][(k + 1) % 3];
  const double det = m[0][0] * c[0][0] + m[0][1] * c[1][0] + m[0][2] * c[2][0];
  const double t[3] = {a.columns[3].x, a.columns[3].y, a.columns[3].z};
  maniAffine r;
  for (int k = 0; k < 3; k++) r.columns[k] = {(float)(c[0][k] / det), (float)(c[1][k] / det), (float)(c[2][k] / det)};
  double o[3];
  for (int i = 0; i < 3; i++) o[i] = -(c[i][0] * t[0] + c[i][1] * t[1] + c[i][2] * t[2]) / det;
  r.columns[3] = {(float)o[0], (float)o[1], (float)o[2]};
  return r;
}

// A model's matrix in the file's first BindPose (file axes and units), read by
// the test from the records; false without one.
bool BindPoseMatrix(const maniFbx* f, uint32_t model, maniAffine* out) {
  int64_t id;
  if (!mani_FbxPropInt(f, mani_FbxGetProp(f, f->models[model].node, 0), &id)) return false;
  uint32_t objects = mani_FbxFind(f, MANI_FBX_NONE, "Objects");
  for (uint32_t p = mani_FbxFind(f, objects, "Pose"); p != MANI_FBX_NONE; p = mani_FbxFindNext(f, p))
    for (uint32_t k = mani_FbxFind(f, p, "PoseNode"); k != MANI_FBX_NONE; k = mani_FbxFindNext(f, k)) {
      int64_t node;
      if (!mani_FbxPropInt(f, mani_FbxGetProp(f, mani_FbxFind(f, k, "Node"), 0), &node) || node != id) continue;
      uint32_t matrix = mani_FbxFind(f, k, "Matrix");
      double m[16];
      if (matrix == MANI_FBX_NONE || mani_FbxArrayCount(f, matrix) != 16 ||
          mani_FbxReadArray(f, matrix, m, 16).result != mani_success)
        return false;
      for (int c = 0; c < 4; c++) out->columns[c] = {(float)m[4 * c], (float)m[4 * c + 1], (float)m[4 * c + 2]};
      return true;
    }
  return false;
}

struct Opened {
  Builder bl;
  std::string bytes;
  maniFbx* f = nullptr;
};

// The rest-pose positions of a skinned mesh's control points, Maul's skinning.
// Poses the skeleton before skinning (the rest pose when absent): the clip
// checks sample a built clip into it.
using PoseHook = std::function<bool(Opened&, const maniSkeleton&, maniPose*)>;

// skinMove, when given, moves the skinned vertices after the skinning (the
// clip checks' "# ufbx:transform_skin").
bool SkinnedPositions(Opened& d, uint32_t skin, const maniFbxOptions& o, const std::vector<float>& points,
                      std::vector<double>* out, const std::string& what, const PoseHook& hook = nullptr,
                      const maniAffine* skinMove = nullptr) {
  uint32_t skeleton = maniFbx_GetSkinSkeleton(d.f, skin);
  EXPECT_NE(skeleton, UINT32_MAX) << what;
  if (skeleton == UINT32_MAX) return false;
  maniImportResult r = maniBuildFbxSkeleton(d.bl.b, d.f, skeleton, &o);
  EXPECT_EQ(r.result, mani_success) << what << " skeleton: reason " << r.reason << " item " << r.item;
  if (r.result != mani_success) return false;
  File skelFile = d.bl.Built();
  maniSkeleton sk;
  EXPECT_EQ(maniOpenSkeleton(skelFile.data(), skelFile.size, &sk).result, mani_success);
  r = maniBuildFbxSkin(d.bl.b, d.f, skin, &sk, &o);
  EXPECT_EQ(r.result, mani_success) << what << " skin: reason " << r.reason << " item " << r.item;
  if (r.result != mani_success) return false;
  File skinFile = d.bl.Built();
  maniSkin sn;
  EXPECT_EQ(maniOpenSkin(skinFile.data(), skinFile.size, &sn).result, mani_success);
  r = maniBuildFbxInfluences(d.bl.b, d.f, skin, &sn);
  EXPECT_EQ(r.result, mani_success) << what << " influences: reason " << r.reason << " item " << r.item;
  if (r.result != mani_success) return false;
  File infFile = d.bl.Built();
  maniInfluences inf;
  EXPECT_EQ(maniOpenInfluences(infFile.data(), infFile.size, &inf).result, mani_success);
  EXPECT_EQ(maniInfluences_GetVertexCount(&inf) * 3u, points.size()) << what;
  std::vector<uint64_t> poseMemory(maniSkeleton_GetPoseSize(&sk) / 8 + 8);
  void* aligned = (void*)(((uintptr_t)poseMemory.data() + 31) & ~(uintptr_t)31);
  maniPose* pose = nullptr;
  EXPECT_EQ(maniInitPose(&sk, aligned, maniSkeleton_GetPoseSize(&sk), &pose), mani_success);
  if (hook && !hook(d, sk, pose)) return false;
  uint32_t joints = maniSkin_GetJointCount(&sn);
  std::vector<maniAffine> palette(joints);
  uint32_t count = 0;
  EXPECT_EQ(maniPose_ComputePalette(pose, &sk, &sn, palette.data(), joints, &count), mani_success);
  std::vector<float> dq((size_t)joints * MANI_DUAL_QUATERNION_FLOATS);
  EXPECT_EQ(maniConvertPaletteToDualQuaternions(palette.data(), joints, dq.data()), mani_success);
  std::vector<float> moved(points.size());
  maniSkinStream stream = {points.data(), moved.data(), 12, 12, maniSkinStreamPosition, 0};
  maniSkinJob job = {&inf, palette.data(), dq.data(), joints, 0, (uint32_t)(points.size() / 3), 1, &stream};
  maniSkinningMethod method = maniFbx_GetSkinMethod(d.f, skin);
  maniResult s = method == maniSkinningLinear           ? maniSkinLinear(&job)
                 : method == maniSkinningDualQuaternion ? maniSkinDualQuaternion(&job)
                                                        : maniSkinBlended(&job);
  EXPECT_EQ(s, mani_success) << what;
  maniAffine placement;
  EXPECT_EQ(maniFbx_GetSkeletonPlacement(d.f, skeleton, &o, &placement).result, mani_success);
  // unskinned vertices keep the mesh model's transform (ufbx)
  uint32_t mesh = maniFbx_GetSkinModel(d.f, skin);
  maniAffine meshWorld;
  EXPECT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, mesh, &o).result, mani_success);
  File meshFile = d.bl.Built();
  maniSkeleton ms;
  EXPECT_EQ(maniOpenSkeleton(meshFile.data(), meshFile.size, &ms).result, mani_success);
  maniAffine above;
  EXPECT_EQ(maniFbx_GetModelPlacement(d.f, mesh, &o, &above).result, mani_success);
  meshWorld = Compose(Compose(above, FromTransform(maniSkeleton_GetRest(&ms, 0))), Geometric(d.f, mesh));
  out->resize(points.size());
  for (size_t v = 0; v < points.size() / 3; v++) {
    float w = 0;
    (void)maniInfluences_GetInfluence(&inf, (uint32_t)v, 0, &w);
    if (w == 0) {
      Apply(meshWorld, &points[3 * v], &(*out)[3 * v]);
    } else {
      Apply(placement, &moved[3 * v], &(*out)[3 * v]);
      if (skinMove != nullptr) {
        float q[3] = {(float)(*out)[3 * v], (float)(*out)[3 * v + 1], (float)(*out)[3 * v + 2]};
        Apply(*skinMove, q, &(*out)[3 * v]);
      }
    }
  }
  return true;
}

// Every point of a within tolerance of some point of b.
int Unmatched(const std::vector<P3>& a, const std::vector<P3>& b, double tolerance) {
  int missing = 0;
  for (const P3& p : a) {
    bool found = false;
    for (const P3& q : b)
      if (std::fabs(p.x - q.x) <= tolerance && std::fabs(p.y - q.y) <= tolerance && std::fabs(p.z - q.z) <= tolerance) {
        found = true;
        break;
      }
    missing += !found;
  }
  return missing;
}

// Each control point's cluster weights summed over a skin's clusters, as the
// file gives them (maniBuildFbxInfluences renormalizes them afterwards).
std::vector<double> ClusterWeightSums(const maniFbx* f, uint32_t skin, size_t vertices) {
  std::vector<double> sums(vertices, 0.0);
  const uint32_t count = mani_FbxSkinClusters(f, skin, nullptr, nullptr, 0);
  std::vector<uint32_t> models(count), clusters(count);
  (void)mani_FbxSkinClusters(f, skin, models.data(), clusters.data(), count);
  for (uint32_t c = 0; c < count; c++) {
    uint32_t in = mani_FbxFind(f, clusters[c], "Indexes"), wn = mani_FbxFind(f, clusters[c], "Weights");
    if (in == MANI_FBX_NONE || wn == MANI_FBX_NONE) continue;
    uint32_t n = mani_FbxArrayCount(f, in);
    if (n != mani_FbxArrayCount(f, wn)) continue;
    std::vector<double> indexes(n), weights(n);
    if (mani_FbxReadArray(f, in, indexes.data(), n).result != mani_success ||
        mani_FbxReadArray(f, wn, weights.data(), n).result != mani_success)
      continue;
    for (uint32_t k = 0; k < n; k++)
      if (indexes[k] >= 0 && indexes[k] < (double)vertices) sums[(size_t)indexes[k]] += weights[k];
  }
  return sums;
}

TEST(FbxReference, SceneAsLoaded) {
  std::string root = SharedData(), readme;
  if (root.empty() || !ReadText(root + "/fbx/README.md", &readme)) GTEST_SKIP() << "no ../shared/data";
  int meshes = 0, skinned = 0;
  std::string failures;
  size_t at = 0;
  while ((at = readme.find("\n| `", at)) != std::string::npos) {
    at += 4;
    std::string name = readme.substr(at, readme.find('`', at) - at);
    size_t end = readme.find('\n', at);
    std::string row = readme.substr(at, end - at);
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".fbx") != 0 || row.find("scene as loaded") == std::string::npos)
      continue;
    size_t ref = row.find("References: `");
    if (ref == std::string::npos) continue;
    ref += 13;
    std::string objName = row.substr(ref, row.find('`', ref) - ref);
    std::string objText;
    ASSERT_TRUE(ReadText(root + "/fbx/" + objName, &objText)) << objName;
    Obj obj = ParseObj(objText);
    Opened d;
    ASSERT_TRUE(ReadText(root + "/fbx/" + name, &d.bytes)) << name;
    maniImportResult r = maniOpenFbx(d.bl.b, d.bytes.data(), d.bytes.size(), &d.f);
    ASSERT_EQ(r.result, mani_success) << name;
    maniFbxOptions o = FileUnits(d.f);
    for (uint32_t m = 0; m < maniFbx_GetModelCount(d.f); m++) {
      size_t length;
      const char* bone = maniFbx_GetModelBoneName(d.f, m, &length);
      auto group = obj.groups.find(std::string(bone, length));
      if (group == obj.groups.end()) continue;
      uint32_t verticesNode = MeshVertices(d.f, m);
      if (verticesNode == MANI_FBX_NONE) continue;
      std::vector<float> points = ControlPoints(d.f, verticesNode);
      std::string what = name + " " + group->first;
      std::vector<double> placed;
      uint32_t skin = UINT32_MAX;
      for (uint32_t k = 0; k < maniFbx_GetSkinCount(d.f); k++)
        if (maniFbx_GetSkinModel(d.f, k) == m) skin = k;
      if (skin != UINT32_MAX) {
        if (!SkinnedPositions(d, skin, o, points, &placed, what)) continue;
        skinned++;
      } else {
        ASSERT_EQ(maniBuildFbxModelSkeleton(d.bl.b, d.f, m, &o).result, mani_success) << what;
        File file = d.bl.Built();
        maniSkeleton ms;
        ASSERT_EQ(maniOpenSkeleton(file.data(), file.size, &ms).result, mani_success);
        maniAffine above;
        ASSERT_EQ(maniFbx_GetModelPlacement(d.f, m, &o, &above).result, mani_success);
        maniAffine world = Compose(Compose(above, FromTransform(maniSkeleton_GetRest(&ms, 0))), Geometric(d.f, m));
        placed.resize(points.size());
        for (size_t v = 0; v < points.size() / 3; v++) Apply(world, &points[3 * v], &placed[3 * v]);
      }
      std::vector<P3> ours;
      for (size_t v = 0; v < placed.size() / 3; v++)
        ours.push_back({placed[3 * v], placed[3 * v + 1], placed[3 * v + 2]});
      int a = Unmatched(group->second, ours, obj.tolerance), b = Unmatched(ours, group->second, obj.tolerance);
      if ((a != 0 || b != 0) && getenv("FBX_REF_DEBUG"))
        for (size_t k = 0; k < ours.size() && k < 4; k++)
          printf("%s ours %g %g %g obj %g %g %g\n", what.c_str(), ours[k].x, ours[k].y, ours[k].z,
                 k < group->second.size() ? group->second[k].x : 0.0, k < group->second.size() ? group->second[k].y : 0.0,
                 k < group->second.size() ? group->second[k].z : 0.0);
      // Two files hold vertices whose cluster weights do not sum to 1 (maya_poses: every vertex
      // about 0.9995; maya_advanced_skinned_pivot: vertices 4, 9, 14, 19 at 0.99909, left out of
      // a cluster). maniBuildFbxInfluences renormalizes them, as its reference says; ufbx keeps
      // the shortfall, so only those vertices may miss the .obj, and every vertex summing to 1
      // must match it.
      static const char* const shortWeights[] = {"maya_advanced_skinned_pivot_7700_ascii.fbx",
                                                 "maya_poses_7700_ascii.fbx"};
      bool isShort = false;
      for (const char* k : shortWeights) isShort |= name == k;
      if (isShort && skin != UINT32_MAX) {
        std::vector<double> sums = ClusterWeightSums(d.f, skin, ours.size());
        int shortfall = 0, fullUnmatched = 0;
        for (size_t v = 0; v < ours.size(); v++) {
          const bool full = std::fabs(sums[v] - 1.0) <= 1e-9;
          shortfall += !full;
          if (full && Unmatched({ours[v]}, group->second, obj.tolerance) != 0) fullUnmatched++;
        }
        EXPECT_GT(shortfall, 0) << what;
        EXPECT_EQ(fullUnmatched, 0) << what;
        EXPECT_LE(a, shortfall) << what;
        EXPECT_LE(b, shortfall) << what;
        printf("weights short of 1: %s (%d vertices; %d, %d unmatched)\n", what.c_str(), shortfall, a, b);
        skinned++;
        continue;
      }
      if (a != 0 || b != 0)
        failures += what + ": " + std::to_string(a) + " of the .obj's points and " + std::to_string(b) +
                    " of ours unmatched\n";
      meshes++;
    }
    maniCloseFbx(d.f);
  }
  EXPECT_TRUE(failures.empty()) << failures;
  EXPECT_GE(meshes, 216);
  EXPECT_GE(skinned, 5);
  printf("meshes %d, skinned %d\n", meshes, skinned);
}

// maniFbx_GetClipCount and maniFbx_GetClipName: the README's counts ("N
// anim stacks" from 7000, "N takes" before; none listed: 0) on every shared
// file that opens, and the names blender_279_sausage's stacks have.
TEST(FbxReference, ClipCountsAndNames) {
  std::string root = SharedData(), readme;
  if (root.empty() || !ReadText(root + "/fbx/README.md", &readme)) GTEST_SKIP() << "no ../shared/data";
  int files = 0, withClips = 0;
  size_t at = 0;
  while ((at = readme.find("\n| `", at)) != std::string::npos) {
    at += 4;
    std::string name = readme.substr(at, readme.find('`', at) - at);
    size_t end = readme.find('\n', at);
    std::string row = readme.substr(at, end - at);
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".fbx") != 0) continue;
    size_t facts = row.find("*[");
    std::string listed = facts == std::string::npos ? "" : row.substr(facts, row.find("]*", facts) - facts);
    Opened d;
    ASSERT_TRUE(ReadText(root + "/fbx/" + name, &d.bytes)) << name;
    if (maniOpenFbx(d.bl.b, d.bytes.data(), d.bytes.size(), &d.f).result != mani_success) continue;
    const char* word = maniFbx_GetVersion(d.f) >= 7000 ? " anim stacks" : " takes";
    uint32_t expected = 0;
    size_t w = listed.find(word);
    if (w != std::string::npos) {
      size_t n = listed.rfind(' ', w - 1);
      size_t comma = listed.rfind('[', w - 1);
      size_t from = (n == std::string::npos || (comma != std::string::npos && comma > n)) ? comma : n;
      expected = (uint32_t)atoi(listed.c_str() + from + 1);
    }
    EXPECT_EQ(maniFbx_GetClipCount(d.f), expected) << name;
    for (uint32_t c = 0; c < maniFbx_GetClipCount(d.f); c++) {
      size_t length = 99;
      EXPECT_NE(maniFbx_GetClipName(d.f, c, &length), nullptr) << name;
    }
    size_t length = 99;
    EXPECT_EQ(maniFbx_GetClipName(d.f, maniFbx_GetClipCount(d.f), &length), nullptr) << name;
    EXPECT_EQ(length, 0u);
    files++;
    withClips += expected > 0;
    maniCloseFbx(d.f);
  }
  EXPECT_GE(files, 80);
  EXPECT_GE(withClips, 70);

  Opened d;
  ASSERT_TRUE(ReadText(root + "/fbx/blender_279_sausage_7400_binary.fbx", &d.bytes));
  ASSERT_EQ(maniOpenFbx(d.bl.b, d.bytes.data(), d.bytes.size(), &d.f).result, mani_success);
  ASSERT_EQ(maniFbx_GetClipCount(d.f), 3u);
  const char* names[3] = {"Base", "Spin", "Wiggle"};
  std::vector<std::string> got;
  for (uint32_t c = 0; c < 3; c++) {
    size_t length = 0;
    const char* n = maniFbx_GetClipName(d.f, c, &length);
    ASSERT_NE(n, nullptr);
    got.push_back(std::string(n, length));
  }
  // Blender names its stacks "<object>|<action>"; the action is the stack ufbx matches by name.
  for (uint32_t c = 0; c < 3; c++) EXPECT_NE(got[c].find(names[c]), std::string::npos) << got[c];
  maniCloseFbx(d.f);
  EXPECT_EQ(maniFbx_GetClipCount(nullptr), 0u);
  size_t length = 7;
  EXPECT_EQ(maniFbx_GetClipName(nullptr, 0, &length), nullptr);
  EXPECT_EQ(length, 0u);
}

// The largest distance (per coordinate) from a point of a to the nearest of b.
double WorstNearest(const std::vector<P3>& a, const std::vector<P3>& b) {
  double worst = 0;
  for (const P3& p : a) {
    double best = INFINITY;
    for (const P3& q : b)
      best = std::min(best, std::max({std::fabs(p.x - q.x), std::fabs(p.y - q.y), std::fabs(p.z - q.z)}));
    worst = std::max(worst, best);
  }
  return worst;
}

// The stack's start in seconds (LocalStart, else ReferenceStart; a take's
// LocalTime, else ReferenceTime; else 0),
// read by the test from the stack's properties: clip time 0 is this time.
std::string bone_name_of(const maniFbx* f, uint32_t model) {
  size_t length = 0;
  const char* name = maniFbx_GetModelBoneName(f, model, &length);
  return std::string(name, length);
}

double StackStart(const maniFbx* f, uint32_t clip) {
  if (maniFbx_GetVersion(f) < 7000) {  // a take: LocalTime, else ReferenceTime (begin, end)
    for (const char* name : {"LocalTime", "ReferenceTime"}) {
      uint32_t t = mani_FbxFind(f, mani_FbxClipNode(f, clip), name);
      int64_t v;
      if (t != MANI_FBX_NONE && mani_FbxPropInt(f, mani_FbxGetProp(f, t, 0), &v)) return (double)v / 46186158000.0;
    }
    return 0.0;
  }
  uint32_t block = mani_FbxPropertiesOf(f, mani_FbxClipNode(f, clip));
  for (const char* name : {"LocalStart", "ReferenceStart"}) {
    uint32_t at = 0;
    uint32_t p = mani_FbxFindSetting(f, block, name, &at);
    int64_t v;
    if (p != MANI_FBX_NONE && mani_FbxPropInt(f, mani_FbxGetProp(f, p, at), &v)) return (double)v / 46186158000.0;
  }
  return 0.0;
}

// maniBuildFbxClip against ufbx's evaluated references (README: the
// .obj at each time, ufbx_evaluate_scene with skinning): the clip built
// for the skin's skeleton, sampled at the reference time less the stack's
// start, the mesh skinned by Maul's skinning as SceneAsLoaded does at rest.
// Each file's largest error (a point to its nearest, per coordinate) is
// printed; files whose clips are not built yet are printed, not asserted.
TEST(FbxReference, ClipsAgainstEvaluatedReferences) {
  std::string root = SharedData(), readme;
  if (root.empty() || !ReadText(root + "/fbx/README.md", &readme)) GTEST_SKIP() << "no ../shared/data";
  struct Case {
    const char* file;
    const char* stack;  // a part of the clip's name, "" for the first clip
    const char* obj;
    double time;
  };
  const Case cases[] = {
      {"max2009_cube_anim_5800_binary.fbx", "", "max2009_cube_anim_15.obj", 15.0 / 30.0},
      {"max2009_cube_anim_5800_binary.fbx", "", "max2009_cube_anim_45.obj", 45.0 / 30.0},
      {"maya_game_sausage_6100_binary_wiggle.fbx", "", "maya_game_sausage_wiggle_10.obj", 10.0 / 24.0},
      {"maya_game_sausage_6100_binary_wiggle.fbx", "", "maya_game_sausage_wiggle_18.obj", 18.0 / 24.0},
      {"blender_279_sausage_7400_binary.fbx", "Base", "blender_279_sausage_base_0.obj", 0.0},
      {"blender_279_sausage_7400_binary.fbx", "Spin", "blender_279_sausage_spin_15.obj", 15.0 / 24.0},
      {"blender_279_sausage_7400_binary.fbx", "Wiggle", "blender_279_sausage_wiggle_20.obj", 20.0 / 24.0},
      {"maya_game_sausage_7500_binary_deform.fbx", "", "maya_game_sausage_deform_8.obj", 48.0 / 24.0},
      {"maya_game_sausage_7500_binary_deform.fbx", "", "maya_game_sausage_deform_15.obj", 55.0 / 24.0},
      {"synthetic_sausage_wiggle_no_bind_6100_ascii.fbx", "", "maya_game_sausage_wiggle_10.obj", 10.0 / 24.0},
      {"synthetic_sausage_wiggle_no_bind_6100_ascii.fbx", "", "maya_game_sausage_wiggle_18.obj", 18.0 / 24.0},
      {"maya_dq_weights_7500_binary.fbx", "", "maya_dq_weights_10.obj", 10.0 / 24.0},
      {"maya_dq_weights_7500_binary.fbx", "", "maya_dq_weights_18.obj", 18.0 / 24.0},
      {"max_transformed_skin_6100_binary.fbx", "", "max_transformed_skin_5.obj", 5.0 / 30.0},
      {"max_transformed_skin_6100_binary.fbx", "", "max_transformed_skin_15.obj", 15.0 / 30.0},
      {"max7_skin_5000_binary.fbx", "", "max7_skin_5.obj", 5.0 / 30.0},
      {"max7_skin_5000_binary.fbx", "", "max7_skin_15.obj", 15.0 / 30.0},
      {"maya_kenney_character_7700_binary.fbx", "", "maya_kenney_character_4.obj", 4.0 / 24.0},
      {"maya_kenney_character_7700_binary.fbx", "", "maya_kenney_character_9.obj", 9.0 / 24.0},
      {"maya_mixed_inherit_mode_7700_ascii.fbx", "", "maya_mixed_inherit_mode_0.obj", 0.0 / 24.0},
      {"maya_mixed_inherit_mode_7700_ascii.fbx", "", "maya_mixed_inherit_mode_3.obj", 3.0 / 24.0},
      {"maya_mixed_inherit_mode_7700_ascii.fbx", "", "maya_mixed_inherit_mode_7.obj", 7.0 / 24.0},
      {"maya_child_pivots_7700_ascii.fbx", "", "maya_child_pivots_6.obj", 6.0 / 24.0},
      {"maya_child_pivots_7700_ascii.fbx", "", "maya_child_pivots_12.obj", 12.0 / 24.0},
      {"maya_pivot_offset_7700_binary.fbx", "", "maya_pivot_offset_8.obj", 8.0 / 24.0},
      {"maya_pivot_offset_7700_binary.fbx", "", "maya_pivot_offset_12.obj", 12.0 / 24.0},
      {"maya_zero_scale_pivot_7700_binary.fbx", "", "maya_zero_scale_pivot_6.obj", 6.0 / 24.0},
      {"maya_zero_scale_pivot_7700_binary.fbx", "", "maya_zero_scale_pivot_12.obj", 12.0 / 24.0},
      {"maya_instanced_skin_7700_binary.fbx", "", "maya_instanced_skin_0.obj", 0.0 / 24.0},
      {"maya_instanced_skin_7700_binary.fbx", "", "maya_instanced_skin_4.obj", 4.0 / 24.0},
      {"maya_instanced_skin_7700_binary.fbx", "", "maya_instanced_skin_8.obj", 8.0 / 24.0},
      {"maya_transformed_skin_7700_binary.fbx", "", "maya_transformed_skin_0.obj", 0.0 / 24.0},
      {"maya_transformed_skin_7700_binary.fbx", "", "maya_transformed_skin_4.obj", 4.0 / 24.0},
      {"maya_transformed_skin_7700_binary.fbx", "", "maya_transformed_skin_8.obj", 8.0 / 24.0},
      {"maya_extrapolate_cube_7700_binary.fbx", "", "maya_extrapolate_cube_26.obj", 26.0 / 24.0},
      {"maya_extrapolate_cube_7700_binary.fbx", "", "maya_extrapolate_cube_60.obj", 60.0 / 24.0},
      {"maya_extrapolate_cube_7700_binary.fbx", "", "maya_extrapolate_cube_80.obj", 80.0 / 24.0},
      {"maya_extrapolate_cube_7700_binary.fbx", "", "maya_extrapolate_cube_100.obj", 100.0 / 24.0},
      {"maya_anim_layers_over_acc_orders_7500_binary.fbx", "", "maya_anim_layers_over_acc_orders_18.obj", 18.0 / 24.0},
      {"maya_mixed_inherit_mode_7700_ascii.fbx", "", "maya_mixed_inherit_mode_1.obj", 1.0 / 24.0},
      {"maya_mixed_inherit_mode_7700_ascii.fbx", "", "maya_mixed_inherit_mode_2.obj", 2.0 / 24.0},
      {"maya_mixed_inherit_mode_7700_ascii.fbx", "", "maya_mixed_inherit_mode_4.obj", 4.0 / 24.0},
      {"maya_mixed_inherit_mode_7700_ascii.fbx", "", "maya_mixed_inherit_mode_5.obj", 5.0 / 24.0},
      {"maya_mixed_inherit_mode_7700_ascii.fbx", "", "maya_mixed_inherit_mode_6.obj", 6.0 / 24.0},
      {"motionbuilder_sausage_rrss_7700_binary.fbx", "", "motionbuilder_sausage_rrss_12.obj", 12.0 / 24.0},
      {"motionbuilder_sausage_rrss_7700_binary.fbx", "", "motionbuilder_sausage_rrss_24.obj", 24.0 / 24.0},
      {"motionbuilder_sausage_rrss_7700_binary.fbx", "", "motionbuilder_sausage_rrss_36.obj", 36.0 / 24.0},
      {"motionbuilder_sausage_rrss_7700_binary.fbx", "", "motionbuilder_sausage_rrss_48.obj", 48.0 / 24.0},
      {"max2009_blob_5800_ascii.fbx", "", "max2009_blob_8.obj", 8.0 / 30.0},
      {"max2009_blob_5800_ascii.fbx", "", "max2009_blob_18.obj", 18.0 / 30.0},
  };
  int checked = 0;
  std::string failures, asserted;
  for (const Case& c : cases) {
    std::string objText;
    ASSERT_TRUE(ReadText(root + "/fbx/" + c.obj, &objText)) << c.obj;
    Obj obj = ParseObj(objText);
    Opened d;
    ASSERT_TRUE(ReadText(root + "/fbx/" + c.file, &d.bytes)) << c.file;
    ASSERT_EQ(maniOpenFbx(d.bl.b, d.bytes.data(), d.bytes.size(), &d.f).result, mani_success) << c.file;
    uint32_t clip = UINT32_MAX;
    for (uint32_t k = 0; k < maniFbx_GetClipCount(d.f) && clip == UINT32_MAX; k++) {
      size_t length = 0;
      const char* name = maniFbx_GetClipName(d.f, k, &length);
      if (std::string(name, length).find(c.stack) != std::string::npos) clip = k;
    }
    ASSERT_NE(clip, UINT32_MAX) << c.file << " " << c.stack;
    const double start = StackStart(d.f, clip);
    maniFbxOptions o = FileUnits(d.f);
    double worst = 0;
    float duration = -1;
    bool built = true;
    std::string reason;
    int meshes = 0;
    // A model's world at the case's time: the clip of the model skeleton of its topmost ancestor, the
    // model's bone's model transform sampled, placed (false, built cleared, when the clip is refused)
    auto nodeWorld = [&](uint32_t m, maniAffine* out) -> bool {
      uint32_t top = m;
      while (d.f->modelParent[top] != MANI_FBX_NONE) top = d.f->modelParent[top];
      maniImportResult r = maniBuildFbxModelSkeleton(d.bl.b, d.f, top, &o);
      EXPECT_EQ(r.result, mani_success) << c.file;
      if (r.result != mani_success) return false;
      File sf = d.bl.Built();
      maniSkeleton ms;
      EXPECT_EQ(maniOpenSkeleton(sf.data(), sf.size, &ms).result, mani_success);
      maniImportClipOptions co = maniDefaultImportClipOptions();
      co.sampleRate = 240.0f;  // the references' frames (1/24, 1/30 s) on the grid
      r = maniBuildFbxClip(d.bl.b, d.f, clip, &ms, &o, &co, nullptr);
      if (r.result != mani_success) {
        built = false;
        reason = "refused: result " + std::to_string(r.result) + " reason " + std::to_string(r.reason);
        return false;
      }
      File cf = d.bl.Built();
      maniClip cl;
      EXPECT_EQ(maniOpenClip(cf.data(), cf.size, &cl).result, mani_success);
      duration = maniClip_GetDuration(&cl);
      std::vector<uint64_t> memory(maniSkeleton_GetPoseSize(&ms) / 8 + 8);
      void* aligned = (void*)(((uintptr_t)memory.data() + 31) & ~(uintptr_t)31);
      maniPose* pose = nullptr;
      EXPECT_EQ(maniInitPose(&ms, aligned, maniSkeleton_GetPoseSize(&ms), &pose), mani_success);
      if (pose == nullptr) return false;
      EXPECT_EQ(maniClip_Sample(&cl, &ms, (float)(c.time - start), pose), mani_success);
      EXPECT_EQ(maniPose_ComputeModel(pose, &ms), mani_success);
      uint32_t bone = maniSkeleton_FindBone(&ms, bone_name_of(d.f, m).data(), bone_name_of(d.f, m).size());
      EXPECT_NE(bone, MANI_NO_BONE);
      if (bone == MANI_NO_BONE) return false;
      maniAffine above;
      EXPECT_EQ(maniFbx_GetModelPlacement(d.f, top, &o, &above).result, mani_success);
      *out = Compose(above, maniPose_GetModel(pose, bone));
      return true;
    };
    for (uint32_t m = 0; m < maniFbx_GetModelCount(d.f); m++) {
      size_t length;
      const char* bone = maniFbx_GetModelBoneName(d.f, m, &length);
      // the group of the model's name, or of "<model>_<mesh>" as ufbx's .obj writer names some
      auto group = obj.groups.find(std::string(bone, length));
      for (auto g = obj.groups.begin(); g != obj.groups.end() && group == obj.groups.end(); ++g)
        if (g->first.rfind(std::string(bone, length) + "_", 0) == 0) group = g;
      if (group == obj.groups.end()) continue;
      uint32_t skin = UINT32_MAX;
      for (uint32_t k = 0; k < maniFbx_GetSkinCount(d.f); k++)
        if (maniFbx_GetSkinModel(d.f, k) == m) skin = k;
      uint32_t verticesNode = MeshVertices(d.f, m);
      if (verticesNode == MANI_FBX_NONE) continue;
      // another instance of a skinned geometry (maya_instanced_skin): its skin is the geometry's, bound
      // where the skin's own model was (ufbx skins the geometry once, each instance places it)
      uint32_t bindModel = m;
      for (uint32_t k = 0; k < maniFbx_GetSkinCount(d.f) && skin == UINT32_MAX && obj.transformSkin; k++)
        if (MeshVertices(d.f, maniFbx_GetSkinModel(d.f, k)) == verticesNode) {
          skin = k;
          bindModel = maniFbx_GetSkinModel(d.f, k);
        }
      std::vector<float> points = ControlPoints(d.f, verticesNode);
      if (skin == UINT32_MAX) {
        // a rigid mesh: its model's world at the time, times the geometric transform
        maniAffine node;
        if (!nodeWorld(m, &node)) continue;
        maniAffine world = Compose(node, Geometric(d.f, m));
        std::vector<P3> ours;
        for (size_t v = 0; v < points.size() / 3; v++) {
          double q[3];
          Apply(world, &points[3 * v], q);
          ours.push_back({q[0], q[1], q[2]});
        }
        worst = std::max({worst, WorstNearest(group->second, ours), WorstNearest(ours, group->second)});
        if (getenv("FBX_REF_DEBUG"))
          printf("  %s: %g\n", group->first.c_str(), WorstNearest(group->second, ours));
        meshes++;
        continue;
      }
      std::vector<double> placed;
      std::string what = std::string(c.file) + " " + c.obj + " " + group->first;
      {
        // a skin whose influences are refused is not skinned here (maya_dq_weights' Indexes and
        // BlendWeights, 674 each, are read as ufbx reads them)
        Opened q;
        q.bytes = d.bytes;
        EXPECT_EQ(maniOpenFbx(q.bl.b, q.bytes.data(), q.bytes.size(), &q.f).result, mani_success);
        bool refused = maniBuildFbxSkeleton(q.bl.b, q.f, maniFbx_GetSkinSkeleton(q.f, skin), &o).result != mani_success;
        File sf = q.bl.Built();
        maniSkeleton qs;
        refused = refused || maniOpenSkeleton(sf.data(), sf.size, &qs).result != mani_success ||
                  maniBuildFbxSkin(q.bl.b, q.f, skin, &qs, &o).result != mani_success;
        maniSkin qn;
        File kf = q.bl.Built();
        maniImportResult ir{};
        if (!refused) {
          EXPECT_EQ(maniOpenSkin(kf.data(), kf.size, &qn).result, mani_success);
          ir = maniBuildFbxInfluences(q.bl.b, q.f, skin, &qn);
        }
        maniCloseFbx(q.f);
        if (refused || ir.result != mani_success) {
          built = false;
          reason = "the skin's influences are refused: reason " + std::to_string(ir.reason);
          continue;
        }
      }
      PoseHook hook = [&](Opened& od, const maniSkeleton& sk, maniPose* pose) {
        maniImportClipOptions co = maniDefaultImportClipOptions();
        co.sampleRate = 240.0f;  // the references' frames (1/24, 1/30 s) on the grid
        uint32_t bound = 0;
        maniImportResult r = maniBuildFbxClip(od.bl.b, od.f, clip, &sk, &o, &co, &bound);
        if (r.result != mani_success) {
          built = false;
          reason = "refused: result " + std::to_string(r.result) + " reason " + std::to_string(r.reason);
          return false;
        }
        File file = od.bl.Built();
        maniClip cl;
        EXPECT_EQ(maniOpenClip(file.data(), file.size, &cl).result, mani_success);
        EXPECT_EQ(maniClip_Sample(&cl, &sk, (float)(c.time - start), pose), mani_success);
        EXPECT_EQ(maniPose_ComputeModel(pose, &sk), mani_success);
        return true;
      };
      // "# ufbx:transform_skin": ufbx's skinned positions are the mesh's at its bind (the mesh model's
      // bind pose matrix), then moved by the mesh model's world at the time
      maniAffine move, bind;
      if (obj.transformSkin) {
        EXPECT_TRUE(BindPoseMatrix(d.f, bindModel, &bind)) << what;
        maniAffine now;
        if (!nodeWorld(m, &now)) continue;
        move = Compose(now, Inverse(bind));
      }
      if (!SkinnedPositions(d, skin, o, points, &placed, what, hook, obj.transformSkin ? &move : nullptr)) continue;
      std::vector<P3> ours;
      for (size_t v = 0; v < placed.size() / 3; v++) ours.push_back({placed[3 * v], placed[3 * v + 1], placed[3 * v + 2]});
      worst = std::max({worst, WorstNearest(group->second, ours), WorstNearest(ours, group->second)});
      meshes++;
    }
    // Takes (files before 7000) are not read yet: maniBuildFbxClip refuses them (Property), so those
    // files' checks are printed, not asserted.
    if (!built || meshes == 0) {
      // not asserted: takes before 7000 (maniBuildFbxClip refuses them, Property), a skin whose
      // influences are refused, a rigid or legacy-skinned mesh (no Deformer skin)
      printf("clip check %s %s: not built (%s)\n", c.file, c.obj, meshes == 0 && built ? "no skinned mesh" : reason.c_str());
      maniCloseFbx(d.f);
      continue;
    }
    printf("clip check %s %s: max error %g (tolerance %g; at %g s of the clip, rigid clips' duration %g)\n", c.file,
           c.obj, worst, obj.tolerance, c.time - start, duration);
    // max7_skin (5.0): its legacy skin (Link records on the mesh model) is read as a skin (2.6e-3 off
    // at most, its .obj's tolerance 0.01).
    // maya_anim_layers_over_acc_orders (an additive layer in rotation accumulation mode 1 and an override
    // passthrough layer at an animated 98.6 % over six rotation orders) is asserted: 2e-4 off at most.
    // motionbuilder_sausage_rrss (InheritType 0, RrSs: the parents' non-uniform scale applied componentwise,
    // as ufbx's componentwise scale) is asserted: 4.1e-6 off at most.
    if (worst > obj.tolerance) failures += std::string(c.file) + " " + c.obj + ": " + std::to_string(worst) + "\n";
    checked++;
    asserted += std::string(c.obj) + " ";
    maniCloseFbx(d.f);
  }
  EXPECT_TRUE(failures.empty()) << failures;
  EXPECT_GE(checked, 50);
  // maya_dq_weights' per-vertex blend weights (the skin's Indexes and BlendWeights) are skinned and held;
  // maya_transformed_skin's and maya_instanced_skin's skinned meshes are moved as "# ufbx:transform_skin" says
  for (const char* must : {"motionbuilder_sausage_rrss_12.obj", "motionbuilder_sausage_rrss_48.obj",
                           "max7_skin_5.obj", "max7_skin_15.obj", "maya_anim_layers_over_acc_orders_18.obj",
                           "maya_dq_weights_10.obj", "maya_dq_weights_18.obj", "maya_transformed_skin_4.obj",
                           "maya_transformed_skin_0.obj", "maya_transformed_skin_8.obj", "maya_instanced_skin_0.obj",
                           "maya_instanced_skin_4.obj", "maya_instanced_skin_8.obj"})
    EXPECT_NE(asserted.find(must), std::string::npos) << must << " not asserted";
}

// Every clip of every shared file that opens builds on each of its skeletons
// and on the model skeleton of each top model (those that build), and the
// built clips open.
TEST(FbxReference, EverySharedClipBuilds) {
  std::string root = SharedData(), readme;
  if (root.empty() || !ReadText(root + "/fbx/README.md", &readme)) GTEST_SKIP() << "no ../shared/data";
  int built = 0;
  std::string failures;
  size_t at = 0;
  while ((at = readme.find("\n| `", at)) != std::string::npos) {
    at += 4;
    std::string name = readme.substr(at, readme.find('`', at) - at);
    if (name.size() < 5 || name.compare(name.size() - 4, 4, ".fbx") != 0) continue;
    Opened d;
    ASSERT_TRUE(ReadText(root + "/fbx/" + name, &d.bytes)) << name;
    if (maniOpenFbx(d.bl.b, d.bytes.data(), d.bytes.size(), &d.f).result != mani_success) continue;
    maniFbxOptions o = FileUnits(d.f);
    // the skeletons, then the model skeletons of the top models
    const uint32_t skeletons = maniFbx_GetSkeletonCount(d.f), models = maniFbx_GetModelCount(d.f);
    for (uint32_t k = 0; k < skeletons + models; k++) {
      if (k >= skeletons && d.f->modelParent[k - skeletons] != MANI_FBX_NONE) continue;
      maniImportResult sr = k < skeletons ? maniBuildFbxSkeleton(d.bl.b, d.f, k, &o)
                                          : maniBuildFbxModelSkeleton(d.bl.b, d.f, k - skeletons, &o);
      if (sr.result != mani_success) continue;
      File sf = d.bl.Built();
      maniSkeleton sk;
      ASSERT_EQ(maniOpenSkeleton(sf.data(), sf.size, &sk).result, mani_success);
      for (uint32_t c = 0; c < maniFbx_GetClipCount(d.f); c++) {
        maniImportClipOptions co = maniDefaultImportClipOptions();
        maniImportResult r = maniBuildFbxClip(d.bl.b, d.f, c, &sk, &o, &co, nullptr);
        // maya_long_keyframes: keys millions of frames apart, more samples than MANI_MAX_SAMPLES at
        // the keys' rate: the timing the builder refuses
        if (name == "maya_long_keyframes_7700_binary.fbx" && r.result == mani_errorFormat &&
            r.reason == maniImportReasonBuild && r.item == maniBuildReasonTiming)
          continue;
        if (r.result != mani_success) {
          failures += name + " skeleton " + std::to_string(k) + " clip " + std::to_string(c) + ": result " +
                      std::to_string(r.result) + " reason " + std::to_string(r.reason) + " item " +
                      std::to_string(r.item) + "\n";
          continue;
        }
        File cf = d.bl.Built();
        maniClip cl;
        EXPECT_EQ(maniOpenClip(cf.data(), cf.size, &cl).result, mani_success) << name;
        built++;
      }
    }
    maniCloseFbx(d.f);
  }
  printf("%d clips built\n%s", built, failures.c_str());
  EXPECT_TRUE(failures.empty()) << failures;
  EXPECT_GE(built, 150);
}

}  // namespace
