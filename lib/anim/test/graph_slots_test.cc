// A graph's asset slots (graph.h, graphbuild.h): motion database, learned
// model, spring set and retargeting map slots built, opened (every new byte
// checked), read back by the 13 slot accessors, bound by identity and
// carried through the JSON text form. Expected values come from the
// reference's words and the assets' own identities.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "lib/anim/test/fixtures/clip_fixtures.h"
#include "lib/anim/test/fixtures/file_testing.h"
#include "lib/anim/test/fixtures/learned_fixtures.h"
#include "lib/anim/test/fixtures/pose_testing.h"
#include "lib/core/container.h"
#include "lib/core/hash.h"
#include "maul/anim/clip.h"
#include "maul/anim/graph.h"
#include "maul/anim/graphbuild.h"
#include "maul/anim/learned.h"
#include "maul/anim/match.h"
#include "maul/anim/matchbuild.h"
#include "maul/anim/mirror.h"
#include "maul/anim/mirrorbuild.h"
#include "maul/anim/retarget.h"
#include "maul/anim/retargetbuild.h"
#include "maul/anim/rootmotion.h"
#include "maul/anim/spring.h"

namespace {

constexpr uint64_t kSeed = 5;  // the learned fixture's skeleton is Skel(kSeed, 12)

struct Clip {
  File file;
  maniClip c;
  Clip(uint64_t seed, const maniSkeleton* s, maniAdditiveBasis basis = maniAdditiveNone, uint32_t flags = 0) {
    maniFixtureClip fc;
    maniFixtureMakeClip(&fc, seed, s, MANI_FIXTURE_CLIP_ALL_BONES | flags, maniLoopRepeat, basis);
    size_t size = 0;
    void* bytes = maniFixtureBuildClip(&fc.source, &size);
    EXPECT_NE(bytes, nullptr);
    file.Assign(bytes, size);
    free(bytes);
    maniFixtureFreeClip(&fc);
    EXPECT_EQ(maniOpenClip(file.data(), file.size, &c).result, mani_success);
  }
};

// A database of clips of one skeleton: bone 11's position now, one entry a
// clip over its whole duration.
struct Database {
  File file;
  maniMotionDatabase d;
  Database(const maniSkeleton* s, const std::vector<const maniClip*>& clips) {
    std::vector<maniClip> views;
    for (const maniClip* c : clips) views.push_back(*c);
    static const float now[1] = {0.0f};
    maniMatchChannelSource ch;
    memset(&ch, 0, sizeof ch);
    ch.kind = maniMatchChannelBonePosition;
    ch.bone = 11;
    ch.times = now;
    ch.timeCount = 1;
    ch.weight = 1.0f;
    std::vector<maniMatchEntrySource> entries(views.size());
    for (size_t i = 0; i < views.size(); ++i) {
      memset(&entries[i], 0, sizeof entries[i]);
      entries[i].clip = (uint32_t)i;
      entries[i].end = maniClip_GetDuration(&views[i]);
    }
    maniMotionDatabaseSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = s;
    src.clips = views.data();
    src.clipCount = (uint32_t)views.size();
    src.channels = &ch;
    src.channelCount = 1;
    src.entries = entries.data();
    src.entryCount = (uint32_t)entries.size();
    src.rate = 30.0f;
    src.upAxis = 1;
    src.forwardAxis = 2;
    src.leafSize = 8;
    Builder b;
    EXPECT_EQ(maniBuildMotionDatabase(b.b, &src).result, mani_success);
    file = b.Built();
    EXPECT_EQ(maniOpenMotionDatabase(file.data(), file.size, &d).result, mani_success);
  }
};

struct Model {
  File file;
  maniLearnedModel m;
  Model(uint64_t seed, uint32_t hidden) {
    size_t size = 0;
    void* bytes = maniFixtureBuildLearnedModel(seed, hidden, maniLearnedWeightsFloat32, &size);
    EXPECT_NE(bytes, nullptr);
    file.Assign(bytes, size);
    free(bytes);
    EXPECT_EQ(maniOpenLearnedModel(file.data(), file.size, &m).result, mani_success);
  }
};

// A spring set of one spring over the first bone with a parent and that
// parent, of a stiffness.
struct Springs {
  File file;
  maniSpringSet set;
  Springs(const maniSkeleton* s, float stiffness) {
    uint32_t child = 1;
    while (maniSkeleton_GetParent(s, child) == MANI_NO_BONE) ++child;
    maniSpringSourceJoint joints[2];
    memset(joints, 0, sizeof joints);
    joints[0].bone = maniSkeleton_GetParent(s, child);
    joints[1].bone = child;
    for (maniSpringSourceJoint& j : joints) {
      j.stiffness = stiffness;
      j.dragForce = 0.5f;
      j.limitRotation.w = 1.0f;
    }
    maniSpringSourceSpring spring;
    memset(&spring, 0, sizeof spring);
    spring.joints = joints;
    spring.jointCount = 2;
    spring.center = MANI_NO_BONE;
    maniSpringSetSource src;
    memset(&src, 0, sizeof src);
    src.skeleton = s;
    src.referenceRate = 60.0f;
    src.stepRate = 60.0f;
    src.springs = &spring;
    src.springCount = 1;
    Builder b;
    EXPECT_EQ(maniBuildSpringSet(b.b, &src).result, mani_success);
    file = b.Built();
    EXPECT_EQ(maniOpenSpringSet(file.data(), file.size, &set).result, mani_success);
  }
};

// A map from one skeleton to another: bone 0 follows bone 0 by a weight
// (distinct weights give distinct maps).
struct Map {
  File file;
  maniRetargetMap m;
  Map(const maniSkeleton* from, const maniSkeleton* to, float weight, uint32_t sourceBone = 0) {
    maniRetargetPair pair;
    memset(&pair, 0, sizeof pair);
    pair.sourceBone = sourceBone;
    pair.weight = weight;
    pair.translation = maniRetargetTranslationOwn;
    maniRetargetMapSource src;
    memset(&src, 0, sizeof src);
    src.source = from;
    src.target = to;
    src.pairs = &pair;
    src.pairCount = 1;
    Builder b;
    EXPECT_EQ(maniBuildRetargetMap(b.b, &src).result, mani_success);
    file = b.Built();
    EXPECT_EQ(maniOpenRetargetMap(file.data(), file.size, &m).result, mani_success);
  }
};

maniGraphNodeSource ClipNode(uint32_t clip) {
  maniGraphNodeSource n;
  memset(&n, 0, sizeof n);
  n.kind = maniGraphNodeClip;
  n.clip = clip;
  n.speed = 1.0f;
  return n;
}

// The graph skeleton S, its clips c0..c2, two source skeletons T1 and T2
// with clips m0, m1 (of T1) and m2 (of T2); two slots of each kind.
//   clip slots: 0 "c0", 1 "m0" via map1, 2 "c1", 3 "m2" via map2, 4 "m1" via map1, 5 "c2"
//   databases: "db0" of (c0, c1), "db1" of (c2, c0)
//   models "lm0", "lm1"; spring sets "sp0", "sp1"
struct Slots {
  Skel skel{kSeed, 12};
  Skel t1{77, 12}, t2{78, 9};
  Clip c0{1, &skel.s}, c1{2, &skel.s}, c2{3, &skel.s};
  Clip m0{4, &t1.s}, m1{5, &t1.s}, m2{6, &t2.s};
  Database db0{&skel.s, {&c0.c, &c1.c}}, db1{&skel.s, {&c2.c, &c0.c}};
  Model lm0{kSeed, 8}, lm1{kSeed, 16};
  Springs sp0{&skel.s, 1.0f}, sp1{&skel.s, 2.0f};
  Map map1{&t1.s, &skel.s, 1.0f}, map2{&t2.s, &skel.s, 0.5f};
  std::vector<maniGraphClipSource> clips;
  std::vector<maniGraphDatabaseSource> databases;
  std::vector<maniGraphModelSource> models;
  std::vector<maniGraphSpringSetSource> springs;
  std::vector<maniGraphNodeSource> nodes;
  maniGraphSource src{};
  Slots() {
    clips = {{"c0", 2, &c0.c, nullptr}, {"m0", 2, &m0.c, &map1.m}, {"c1", 2, &c1.c, nullptr},
             {"m2", 2, &m2.c, &map2.m}, {"m1", 2, &m1.c, &map1.m}, {"c2", 2, &c2.c, nullptr}};
    databases = {{"db0", 3, &db0.d}, {"db1", 3, &db1.d}};
    models = {{"lm0", 3, &lm0.m}, {"lm1", 3, &lm1.m}};
    springs = {{"sp0", 3, &sp0.set}, {"sp1", 3, &sp1.set}};
    nodes = {ClipNode(0)};
    Sync();
  }
  void Sync() {
    src.skeleton = &skel.s;
    src.clips = clips.data();
    src.clipCount = (uint32_t)clips.size();
    src.databases = databases.data();
    src.databaseCount = (uint32_t)databases.size();
    src.models = models.data();
    src.modelCount = (uint32_t)models.size();
    src.springSets = springs.data();
    src.springSetCount = (uint32_t)springs.size();
    src.nodes = nodes.data();
    src.nodeCount = (uint32_t)nodes.size();
    src.output = 0;
  }
  // Without the map slots' clips: a graph binding may take.
  void DropMappedClips() {
    clips = {clips[0], clips[2], clips[5]};
    Sync();
  }
};

void ExpectRefused(const maniGraphSource& src, maniResult code, uint32_t reason, uint64_t item, uint64_t other) {
  Builder b;
  const maniBuildResult r = maniBuildGraph(b.b, &src);
  EXPECT_EQ(r.result, code);
  EXPECT_EQ(r.reason, reason);
  EXPECT_EQ(r.item, item);
  EXPECT_EQ(r.other, other);
}

// A slot's name through its accessor (its length read after the call).
std::string Name(const char* (*get)(const maniGraph*, uint32_t, size_t*), const maniGraph* g, uint32_t slot) {
  size_t length = 0;
  const char* bytes = get(g, slot, &length);
  return bytes ? std::string(bytes, length) : "<null>";
}

// -- Building and the accessors -----------------------------------------------------

TEST(GraphSlots, EveryAccessorReadsTwoSlotsOfEachKind) {
  Slots s;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  size_t length = 0;

  EXPECT_EQ(maniGraph_GetDatabaseCount(&g), 2u);
  EXPECT_EQ(maniGraph_GetDatabaseIdentity(&g, 0), maniMotionDatabase_GetIdentity(&s.db0.d));
  EXPECT_EQ(maniGraph_GetDatabaseIdentity(&g, 1), maniMotionDatabase_GetIdentity(&s.db1.d));
  EXPECT_NE(maniGraph_GetDatabaseIdentity(&g, 0), maniGraph_GetDatabaseIdentity(&g, 1));
  EXPECT_EQ(Name(maniGraph_GetDatabaseName, &g, 0), "db0");
  EXPECT_EQ(Name(maniGraph_GetDatabaseName, &g, 1), "db1");
  EXPECT_EQ(maniGraph_GetDatabaseIdentity(&g, 2), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetDatabaseName(&g, 2, &length), nullptr);

  EXPECT_EQ(maniGraph_GetModelCount(&g), 2u);
  EXPECT_EQ(maniGraph_GetModelIdentity(&g, 0), maniLearnedModel_GetIdentity(&s.lm0.m));
  EXPECT_EQ(maniGraph_GetModelIdentity(&g, 1), maniLearnedModel_GetIdentity(&s.lm1.m));
  EXPECT_NE(maniGraph_GetModelIdentity(&g, 0), maniGraph_GetModelIdentity(&g, 1));
  EXPECT_EQ(Name(maniGraph_GetModelName, &g, 0), "lm0");
  EXPECT_EQ(Name(maniGraph_GetModelName, &g, 1), "lm1");
  EXPECT_NE(maniGraph_GetModelName(&g, 1, nullptr), nullptr);  // lengthOut may be NULL
  EXPECT_EQ(maniGraph_GetModelIdentity(&g, 2), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetModelName(&g, 2, &length), nullptr);

  EXPECT_EQ(maniGraph_GetSpringSetCount(&g), 2u);
  EXPECT_EQ(maniGraph_GetSpringSetIdentity(&g, 0), maniSpringSet_GetIdentity(&s.sp0.set));
  EXPECT_EQ(maniGraph_GetSpringSetIdentity(&g, 1), maniSpringSet_GetIdentity(&s.sp1.set));
  EXPECT_NE(maniGraph_GetSpringSetIdentity(&g, 0), maniGraph_GetSpringSetIdentity(&g, 1));
  EXPECT_EQ(Name(maniGraph_GetSpringSetName, &g, 0), "sp0");
  EXPECT_EQ(Name(maniGraph_GetSpringSetName, &g, 1), "sp1");
  EXPECT_EQ(maniGraph_GetSpringSetIdentity(&g, 2), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetSpringSetName(&g, 2, &length), nullptr);

  // One map slot per distinct map, in the clip slots' order.
  EXPECT_EQ(maniGraph_GetRetargetMapCount(&g), 2u);
  EXPECT_EQ(maniGraph_GetRetargetMapIdentity(&g, 0), maniRetargetMap_GetIdentity(&s.map1.m));
  EXPECT_EQ(maniGraph_GetRetargetMapIdentity(&g, 1), maniRetargetMap_GetIdentity(&s.map2.m));
  EXPECT_EQ(maniGraph_GetRetargetMapSourceIdentity(&g, 0), maniSkeleton_GetIdentity(&s.t1.s));
  EXPECT_EQ(maniGraph_GetRetargetMapSourceIdentity(&g, 1), maniSkeleton_GetIdentity(&s.t2.s));
  EXPECT_EQ(maniGraph_GetRetargetMapIdentity(&g, 2), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetRetargetMapSourceIdentity(&g, 2), UINT64_C(0));
  const uint32_t maps[6] = {MANI_NO_TRACK, 0, MANI_NO_TRACK, 1, 0, MANI_NO_TRACK};
  for (uint32_t k = 0; k < 6; ++k) EXPECT_EQ(maniGraph_GetClipRetargetMap(&g, k), maps[k]) << k;
  EXPECT_EQ(maniGraph_GetClipRetargetMap(&g, 6), MANI_NO_TRACK);
  EXPECT_EQ(maniGraph_GetClipIdentity(&g, 1), maniClip_GetIdentity(&s.m0.c));

  // The database slots list the clip slots of their clips, in order.
  const uint8_t* rec = file.data() + g.databases;
  const uint8_t* list = rec + 24u * 2;
  EXPECT_EQ(g.databaseClipTotal, 4u);
  EXPECT_EQ(mcore_ReadU32(rec + 16), 0u);
  EXPECT_EQ(mcore_ReadU32(rec + 20), 2u);
  EXPECT_EQ(mcore_ReadU32(rec + 24 + 16), 2u);
  EXPECT_EQ(mcore_ReadU32(rec + 24 + 20), 2u);
  const uint32_t listed[4] = {0, 2, 5, 0};
  for (uint32_t i = 0; i < 4; ++i) EXPECT_EQ(mcore_ReadU32(list + 4u * i), listed[i]) << i;

  // A NULL graph: counts 0, identities 0, names NULL, no map.
  EXPECT_EQ(maniGraph_GetDatabaseCount(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetModelCount(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetSpringSetCount(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetRetargetMapCount(nullptr), 0u);
  EXPECT_EQ(maniGraph_GetDatabaseIdentity(nullptr, 0), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetModelIdentity(nullptr, 0), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetSpringSetIdentity(nullptr, 0), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetRetargetMapIdentity(nullptr, 0), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetRetargetMapSourceIdentity(nullptr, 0), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetDatabaseName(nullptr, 0, &length), nullptr);
  EXPECT_EQ(maniGraph_GetModelName(nullptr, 0, &length), nullptr);
  EXPECT_EQ(maniGraph_GetSpringSetName(nullptr, 0, &length), nullptr);
  EXPECT_EQ(maniGraph_GetClipRetargetMap(nullptr, 0), MANI_NO_TRACK);
}

TEST(GraphSlots, AGraphWithoutSlotsHasNone) {
  Slots s;
  s.clips = {s.clips[0]};
  s.databases.clear();
  s.models.clear();
  s.springs.clear();
  s.Sync();
  s.src.databases = nullptr;
  s.src.models = nullptr;
  s.src.springSets = nullptr;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetDatabaseCount(&g), 0u);
  EXPECT_EQ(maniGraph_GetModelCount(&g), 0u);
  EXPECT_EQ(maniGraph_GetSpringSetCount(&g), 0u);
  EXPECT_EQ(maniGraph_GetRetargetMapCount(&g), 0u);
  EXPECT_EQ(maniGraph_GetDatabaseIdentity(&g, 0), UINT64_C(0));
  EXPECT_EQ(maniGraph_GetModelName(&g, 0, nullptr), nullptr);
  EXPECT_EQ(maniGraph_GetClipRetargetMap(&g, 0), MANI_NO_TRACK);
}

TEST(GraphSlots, SlotIdentitiesChangeTheGraphs) {
  Slots s;
  Builder a, b;
  ASSERT_EQ(maniBuildGraph(a.b, &s.src).result, mani_success);
  s.models[1].model = &s.lm0.m;  // both slots the same model now
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File fa = a.Built(), fb = b.Built();
  maniGraph ga, gb;
  ASSERT_EQ(maniOpenGraph(fa.data(), fa.size, &ga).result, mani_success);
  ASSERT_EQ(maniOpenGraph(fb.data(), fb.size, &gb).result, mani_success);
  EXPECT_NE(maniGraph_GetIdentity(&ga), maniGraph_GetIdentity(&gb));
  EXPECT_EQ(maniGraph_GetModelIdentity(&gb, 1), maniLearnedModel_GetIdentity(&s.lm0.m));
}

TEST(GraphSlots, SixtyFourMapsBuildAndTheNextIsALimit) {
  Slots s;
  std::vector<std::unique_ptr<Map>> maps;
  std::vector<std::string> names;
  for (uint32_t k = 0; k <= MANI_MAX_GRAPH_RETARGET_MAPS; ++k) {
    maps.push_back(std::make_unique<Map>(&s.t1.s, &s.skel.s, (float)k / 128.0f));
    names.push_back("m" + std::to_string(k));
  }
  s.clips = {s.clips[0]};
  s.databases.clear();  // db0 lists c1, which is left out
  for (uint32_t k = 0; k < MANI_MAX_GRAPH_RETARGET_MAPS; ++k)
    s.clips.push_back({names[k].c_str(), names[k].size(), &s.m0.c, &maps[k]->m});
  s.Sync();
  {
    Builder b;
    ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
    File file = b.Built();
    maniGraph g;
    ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
    EXPECT_EQ(maniGraph_GetRetargetMapCount(&g), MANI_MAX_GRAPH_RETARGET_MAPS);
    EXPECT_EQ(maniGraph_GetClipRetargetMap(&g, 64), 63u);
    EXPECT_EQ(maniGraph_GetRetargetMapIdentity(&g, 63), maniRetargetMap_GetIdentity(&maps[63]->m));
  }
  // A slot naming an earlier map takes no new slot; the 65th map is a limit.
  s.clips.push_back({"again", 5, &s.m1.c, &maps[0]->m});
  s.clips.push_back({names[64].c_str(), names[64].size(), &s.m0.c, &maps[64]->m});
  s.Sync();
  ExpectRefused(s.src, mani_errorLimit, maniBuildReasonClip, 66, 0);
}

// -- The builder's refusals ----------------------------------------------------------

TEST(GraphSlots, BuildRefusals) {
  const uint32_t D = maniBuildReasonGraphDatabases, M = maniBuildReasonGraphModels,
                 S = maniBuildReasonGraphSpringSets;
  {
    Slots s;
    s.src.databases = nullptr;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonCount, 0, 0);
    s.Sync();
    s.src.models = nullptr;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonCount, 0, 0);
    s.Sync();
    s.src.springSets = nullptr;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonCount, 0, 0);
    s.Sync();
    s.src.databaseCount = MANI_MAX_GRAPH_CLIPS + 1;
    ExpectRefused(s.src, mani_errorLimit, maniBuildReasonCount, 0, 0);
    s.Sync();
    s.src.modelCount = MANI_MAX_GRAPH_CLIPS + 1;
    ExpectRefused(s.src, mani_errorLimit, maniBuildReasonCount, 0, 0);
    s.Sync();
    s.src.springSetCount = MANI_MAX_GRAPH_CLIPS + 1;
    ExpectRefused(s.src, mani_errorLimit, maniBuildReasonCount, 0, 0);
  }
  // Names, with each list's bit.
  {
    Slots s;
    const std::string long_name(MANI_MAX_NAME_BYTES + 1, 'x');
    s.databases[1].nameLength = 0;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonName | D, 1, 0);
    s.databases[1].name = long_name.c_str();
    s.databases[1].nameLength = long_name.size();
    ExpectRefused(s.src, mani_errorLimit, maniBuildReasonName | D, 1, 0);
    s.databases[1].name = "db0";
    s.databases[1].nameLength = 3;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonDuplicateName | D, 1, 0);
  }
  {
    Slots s;
    s.models[0].name = "\xff";
    s.models[0].nameLength = 1;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonName | M, 0, 0);
    s.models[0].name = "lm1";
    s.models[0].nameLength = 3;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonDuplicateName | M, 1, 0);
  }
  {
    Slots s;
    s.springs[1].name = nullptr;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonName | S, 1, 0);
    s.springs[1].name = "sp0";
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonDuplicateName | S, 1, 0);
  }
  // Assets: not opened (other 0), of another skeleton (other 1), a
  // database's clip no clip slot of the graph's skeleton plays (2 + clip).
  {
    Slots s;
    maniMotionDatabase unopened;
    memset(&unopened, 0, sizeof unopened);
    s.databases[1].database = &unopened;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonDatabase, 1, 0);
    s.databases[1].database = nullptr;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonDatabase, 1, 0);
    Database foreign(&s.t1.s, {&s.m0.c});
    s.databases[1].database = &foreign.d;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonDatabase, 1, 1);
    s.databases[1].database = &s.db1.d;
    s.clips.erase(s.clips.begin());  // c0: db0's clip 0 and db1's clip 1
    s.nodes[0].clip = 1;
    s.Sync();
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonDatabase, 0, 2);
    s.databases[0].database = &s.db1.d;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonDatabase, 0, 3);
    // A slot of the clip's identity through a map does not play it.
    s.clips.push_back({"c0 mapped", 9, &s.c0.c, &s.map1.m});
    s.Sync();
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonClip, 5, 1);
  }
  {
    Slots s;
    s.models[1].model = nullptr;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonModel, 1, 0);
    Model foreign(kSeed + 1, 8);
    s.models[1].model = &foreign.m;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonModel, 1, 1);
  }
  {
    Slots s;
    s.springs[0].set = nullptr;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonSpringSetSlot, 0, 0);
    Springs foreign(&s.t1.s, 1.0f);
    s.springs[0].set = &foreign.set;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonSpringSetSlot, 0, 1);
  }
  // Maps: not opened or not made for the graph's skeleton (other 2), the
  // clip not of the map's source (1), a clip of differences (3).
  {
    Slots s;
    maniRetargetMap unopened;
    memset(&unopened, 0, sizeof unopened);
    s.clips[3].map = &unopened;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonClip, 3, 2);
    Map backward(&s.skel.s, &s.t2.s, 1.0f);
    s.clips[3].map = &backward.m;
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonClip, 3, 2);
    s.clips[3].map = &s.map1.m;  // m2 is of T2, map1 of T1
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonClip, 3, 1);
    s.clips[3].map = nullptr;  // a clip of T2 for the graph's skeleton
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonClip, 3, 1);
    Clip additive(9, &s.t2.s, maniAdditiveRest);
    s.clips[3] = {"m2", 2, &additive.c, &s.map2.m};
    ExpectRefused(s.src, mani_errorInvalid, maniBuildReasonClip, 3, 3);
  }
}

// -- Opening -------------------------------------------------------------------------

TEST(GraphSlots, EveryMutationRefused) {
  Slots s;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File file = b.Built();
  ExpectEveryMutationRefused(file.data(), file.size, [](const void* p, size_t n) {
    maniGraph g;
    return maniOpenGraph(p, n, &g);
  });
}

void Reseal(File& f) {
  const uint64_t id = mcore_Hash64(MCORE_IDENTITY_SEED ^ mcore_kindGraph, f.data() + 64, f.size - 64);
  memcpy(f.data() + 32, &id, 8);
}

// Each new word rewritten (and the file resealed) is refused at the byte the
// format's checks name.
TEST(GraphSlots, ResealedSlotWordsRefusedAtTheirByte) {
  Slots s;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  const File built = b.Built();
  File view = built;
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(view.data(), view.size, &g).result, mani_success);
  // The info section is the first, right after the header and its table.
  uint64_t info = 0;
  for (uint64_t at = 0; at + 8 < built.size; at += 8)
    if (mcore_ReadU64(view.data() + at) == maniSkeleton_GetIdentity(&s.skel.s) &&
        mcore_ReadU32(view.data() + at + 8) == 1u) {
      info = at;
      break;
    }
  ASSERT_NE(info, 0u);
  ASSERT_EQ(mcore_ReadU32(view.data() + info + 40), 2u);
  const uint64_t clips = g.clips, dbs = g.databases, models = g.models, springs = g.springSets, maps = g.maps;
  const uint64_t list = dbs + 48;
  struct Patch {
    uint64_t at;
    uint64_t value;
    int wide;  // a u64 word
    uint64_t wrong;
  };
  const Patch patches[] = {
      {info + 40, 3, 0, info + 56},                     // database count past its section (with the list's)
      {info + 40, MANI_MAX_GRAPH_CLIPS + 1, 0, info + 40},
      {info + 44, 1, 0, info + 44},                     // model count
      {info + 48, 3, 0, info + 48},                     // spring set count
      {info + 52, 1, 0, info + 52},                     // map count
      {info + 56, 3, 0, info + 56},                     // database clips
      {info + 60, 1, 0, info + 60},                     // the zero word
      {clips + 24 * 1 + 16, 1, 0, clips + 24 * 1 + 16},  // a map slot before map 0 was named
      {clips + 24 * 3 + 16, 7, 0, clips + 24 * 3 + 16},  // a map past the next
      {clips + 24 * 3 + 16, MANI_NO_TRACK, 0, info + 52},  // map 1 never named
      {maps, 0, 1, maps},                               // a map identity 0
      {maps + 16, maniRetargetMap_GetIdentity(&s.map1.m), 1, maps + 16},  // map 1 the same map as map 0
      {maps + 24, 0, 1, maps + 24},                     // a source identity 0
      {dbs, 0, 1, dbs},                                 // a database identity 0
      {dbs + 24 + 16, 1, 0, dbs + 24 + 16},             // db1's list not after db0's
      {dbs + 24 + 20, 3, 0, dbs + 24 + 20},             // db1 listing past the list
      {dbs + 20, 1, 0, dbs + 24 + 16},                  // db0 listing one: db1 then starts late
      {list + 4, 6, 0, list + 4},                       // a listed slot past the clips
      {list + 4, 1, 0, list + 4},                       // a listed slot played through a map
      {dbs + 24 + 8, mcore_ReadU32(view.data() + dbs + 8), 0, dbs + 24 + 8},  // db1 named as db0
      {dbs + 12, 0, 0, dbs + 12},                       // a name of no bytes
      {models + 16, 0, 1, models + 16},                 // a model identity 0
      {models + 16 + 12, 0, 0, models + 16 + 12},
      {models + 16 + 8, mcore_ReadU32(view.data() + models + 8), 0, models + 16 + 8},
      {springs, 0, 1, springs},                         // a spring set identity 0
      {springs + 8, (uint64_t)g.namesSize + 1, 0, springs + 8},  // a name offset past the names
      {springs + 16 + 8, mcore_ReadU32(view.data() + springs + 8), 0, springs + 16 + 8},
  };
  for (const Patch& p : patches) {
    File f = built;
    if (p.wide) {
      memcpy(f.data() + p.at, &p.value, 8);
    } else {
      const uint32_t v = (uint32_t)p.value;
      memcpy(f.data() + p.at, &v, 4);
    }
    Reseal(f);
    maniGraph out;
    memset(&out, 0x5a, sizeof out);
    const maniGraph before = out;
    const maniFileResult r = maniOpenGraph(f.data(), f.size, &out);
    EXPECT_EQ(r.result, mani_errorFormat) << p.at;
    EXPECT_EQ(r.offset, p.wrong) << p.at;
    EXPECT_EQ(memcmp(&out, &before, sizeof out), 0) << p.at;
  }
  // Resealed without a change, the file opens.
  File same = built;
  Reseal(same);
  EXPECT_EQ(maniOpenGraph(same.data(), same.size, &g).result, mani_success);
}

// -- Binding -------------------------------------------------------------------------

struct Bound {
  std::vector<uint64_t> memory;
  maniGraphBinding* binding = nullptr;
  uint32_t unbound = 0;
  maniResult Bind(const maniGraph* g, const maniGraphAssets* a) {
    const size_t size = maniGraph_GetBindingSize(g);
    memory.assign(size / 8 + 8, 0);
    void* p = reinterpret_cast<void*>((reinterpret_cast<uintptr_t>(memory.data()) + 31) & ~uintptr_t(31));
    return maniBindGraph(g, a, p, size, &binding, &unbound);
  }
};

struct SlotAssets {
  std::vector<const maniClip*> clips;
  std::vector<const maniMotionDatabase*> databases;
  std::vector<const maniLearnedModel*> models;
  std::vector<const maniSpringSet*> springs;
  std::vector<const maniRetargetMap*> maps;
  std::vector<const maniSkeleton*> sources;
  maniGraphAssets a{};
  explicit SlotAssets(Slots& s) {
    clips = {&s.c0.c, &s.c1.c, &s.c2.c, &s.m0.c, &s.m1.c, &s.m2.c};
    databases = {&s.db1.d, &s.db0.d};  // any order: found by identity
    models = {&s.lm1.m, &s.lm0.m};
    springs = {&s.sp0.set, &s.sp1.set};
    maps = {&s.map2.m, &s.map1.m};
    sources = {&s.t1.s, &s.t2.s};
    a.skeleton = &s.skel.s;
  }
  const maniGraphAssets* Sync() {
    a.clips = clips.data();
    a.clipCount = (uint32_t)clips.size();
    a.databases = databases.data();
    a.databaseCount = (uint32_t)databases.size();
    a.models = models.data();
    a.modelCount = (uint32_t)models.size();
    a.springSets = springs.data();
    a.springSetCount = (uint32_t)springs.size();
    a.retargetMaps = maps.data();
    a.retargetMapCount = (uint32_t)maps.size();
    a.sourceSkeletons = sources.data();
    a.sourceSkeletonCount = (uint32_t)sources.size();
    return &a;
  }
};

TEST(GraphSlots, BindsDatabaseModelAndSpringSetSlotsByIdentity) {
  Slots s;
  s.DropMappedClips();  // c0 slot 0, c1 slot 1, c2 slot 2
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  {
    SlotAssets a(s);
    Bound bound;
    EXPECT_EQ(bound.Bind(&g, a.Sync()), mani_success);
    EXPECT_NE(bound.binding, nullptr);
    EXPECT_EQ(bound.unbound, MANI_GRAPH_NONE);
  }
  // Each slot no asset binds is refused, naming no clip slot.
  auto refused = [&](SlotAssets& a) {
    Bound bound;
    EXPECT_EQ(bound.Bind(&g, a.Sync()), mani_errorInvalid);
    EXPECT_EQ(bound.binding, nullptr);
    EXPECT_EQ(bound.unbound, MANI_GRAPH_NONE);
  };
  {
    SlotAssets a(s);
    a.databases = {&s.db1.d};
    refused(a);
  }
  {
    SlotAssets a(s);
    a.models = {&s.lm0.m};
    refused(a);
  }
  {
    SlotAssets a(s);
    a.springs = {&s.sp1.set, nullptr};
    refused(a);
  }
  {
    // Another database of the graph's skeleton and the same clips is not
    // db0: its identity differs.
    SlotAssets a(s);
    Database other(&s.skel.s, {&s.c1.c, &s.c0.c});
    a.databases = {&other.d, &s.db1.d};
    refused(a);
  }
  {
    // A list NULL with a count.
    SlotAssets a(s);
    const maniGraphAssets* p = a.Sync();
    a.a.models = nullptr;
    Bound bound;
    EXPECT_EQ(bound.Bind(&g, p), mani_errorInvalid);
  }
}

TEST(GraphSlots, BindsMapSlotsByIdentity) {
  Slots s;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  auto expect = [&](SlotAssets& a, uint32_t unbound) {
    Bound bound;
    EXPECT_EQ(bound.Bind(&g, a.Sync()), mani_errorInvalid);
    EXPECT_EQ(bound.binding, nullptr);
    EXPECT_EQ(bound.unbound, unbound);
  };
  {
    SlotAssets a(s);
    a.maps = {&s.map2.m};  // map slot 0 (map1) unbound: clip slot 1 plays through it
    expect(a, 1);
  }
  {
    SlotAssets a(s);
    a.maps = {&s.map1.m};  // map slot 1 (map2): clip slot 3
    expect(a, 3);
  }
  {
    SlotAssets a(s);
    a.sources = {&s.t1.s};  // map2's source skeleton missing
    expect(a, 3);
  }
  {
    SlotAssets a(s);
    a.clips = {&s.c0.c, &s.c1.c, &s.c2.c, &s.m0.c, &s.m2.c};  // m1 (clip slot 4) missing
    expect(a, 4);
  }
  {
    SlotAssets a(s);
    a.maps = {&s.map1.m, &s.map1.m};  // map2 missing
    expect(a, 3);
  }
  {
    // Everything bound.
    SlotAssets a(s);
    Bound bound;
    EXPECT_EQ(bound.Bind(&g, a.Sync()), mani_success);
    EXPECT_NE(bound.binding, nullptr);
    EXPECT_EQ(bound.unbound, MANI_GRAPH_NONE);
  }
}

// A graph's mirror map binds to the assets' mirror map of its identity.
TEST(GraphSlots, BindsTheMirrorMapByIdentity) {
  Slots s;
  s.DropMappedClips();
  maniMirrorMapSource ms;
  memset(&ms, 0, sizeof ms);
  ms.skeleton = &s.skel.s;
  ms.axis = maniMirrorAxisX;
  Builder mb;
  ASSERT_EQ(maniBuildMirrorMap(mb.b, &ms).result, mani_success);
  File mfile = mb.Built();
  maniMirrorMap mirror, other;
  ASSERT_EQ(maniOpenMirrorMap(mfile.data(), mfile.size, &mirror).result, mani_success);
  ms.axis = maniMirrorAxisZ;
  ASSERT_EQ(maniBuildMirrorMap(mb.b, &ms).result, mani_success);
  File ofile = mb.Built();
  ASSERT_EQ(maniOpenMirrorMap(ofile.data(), ofile.size, &other).result, mani_success);
  s.src.mirror = &mirror;
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetMirrorMapIdentity(&g), maniMirrorMap_GetIdentity(&mirror));
  SlotAssets a(s);
  a.a.mirrorMap = nullptr;
  Bound none, wrong, right;
  EXPECT_EQ(none.Bind(&g, a.Sync()), mani_errorInvalid);
  a.a.mirrorMap = &other;
  EXPECT_EQ(wrong.Bind(&g, a.Sync()), mani_errorInvalid);
  a.a.mirrorMap = &mirror;
  EXPECT_EQ(right.Bind(&g, a.Sync()), mani_success);
}

struct Aligned {
  std::vector<uint64_t> words;
  uint8_t* p = nullptr;
  size_t size = 0;
  explicit Aligned(size_t n) : size(n) {
    words.assign(n / 8 + 8, 0);
    p = reinterpret_cast<uint8_t*>((reinterpret_cast<uintptr_t>(words.data()) + 31) & ~uintptr_t(31));
  }
};

// A mapped clip node plays its clip carried through its map: the pose is
// the clip sampled on the map's source skeleton and retargeted
// (maniRetargetMap_RetargetPose), its root motion the clip's with the
// translation scaled (maniRetargetMap_RetargetRootMotion).
TEST(GraphSlots, MappedClipsPlayThroughTheirMaps) {
  Slots s;
  Clip walk(11, &s.t1.s, maniAdditiveNone, MANI_FIXTURE_CLIP_ROOT_MOTION);
  s.clips.push_back({"walk", 4, &walk.c, &s.map1.m});
  s.nodes = {ClipNode(6)};
  s.Sync();
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  SlotAssets a(s);
  a.clips.push_back(&walk.c);
  Bound bound;
  ASSERT_EQ(bound.Bind(&g, a.Sync()), mani_success);
  Aligned inst(maniGraphBinding_GetInstanceSize(bound.binding));
  Aligned scratch(maniGraphBinding_GetScratchSize(bound.binding));
  maniGraphInstance* i = nullptr;
  ASSERT_EQ(maniInitGraphInstance(bound.binding, inst.p, inst.size, &i), mani_success);
  Pose out(&s.skel.s), expected(&s.skel.s), source(&s.t1.s);
  Aligned turns(maniRetargetMap_GetScratchSize(&s.map1.m));
  const float steps[3] = {0.25f, 0.125f, 0.5f};
  float at = 0.0f;
  for (float delta : steps) {
    maniRootMove move;
    uint32_t events = 0;
    ASSERT_EQ(maniGraphInstance_Update(i, delta, nullptr, 0, &events, &move), mani_success);
    maniRootMove want;
    ASSERT_EQ(maniClip_GetRootMotion(&walk.c, at, delta, &want), mani_success);
    want.translation = maniRetargetMap_RetargetRootMotion(&s.map1.m, want.translation);
    const float one = 1.0f;
    maniRootMove blended;
    ASSERT_EQ(maniBlendRootMotion(&want, &one, 1, &blended), mani_success);
    EXPECT_EQ(memcmp(&move, &blended, sizeof move), 0) << delta;
    maniGraphNodeView view;
    ASSERT_EQ(maniGraphInstance_InspectNode(i, 0, &view), mani_success);
    at = view.playhead;
    ASSERT_EQ(maniGraphInstance_Evaluate(i, scratch.p, scratch.size, out.p), mani_success);
    ASSERT_EQ(maniClip_Sample(&walk.c, &s.t1.s, at, source.p), mani_success);
    ASSERT_EQ(maniRetargetMap_RetargetPose(&s.map1.m, &s.t1.s, source.p, &s.skel.s, expected.p, turns.p, turns.size),
              mani_success);
    for (uint32_t bone = 0; bone < maniSkeleton_GetBoneCount(&s.skel.s); ++bone) {
      const maniTransform x = maniPose_GetLocal(out.p, bone), y = maniPose_GetLocal(expected.p, bone);
      EXPECT_EQ(memcmp(&x, &y, sizeof x), 0) << bone;
    }
    // A subset of the last bone: the same bits there.
    Aligned plan(maniGraphBinding_GetSubsetSize(bound.binding));
    maniGraphSubset* subset = nullptr;
    const uint32_t last = maniSkeleton_GetBoneCount(&s.skel.s) - 1;
    ASSERT_EQ(maniPlanGraphSubset(bound.binding, &last, 1, plan.p, plan.size, &subset), mani_success);
    Pose part(&s.skel.s);
    ASSERT_EQ(maniGraphInstance_EvaluateSubset(i, subset, scratch.p, scratch.size, part.p), mani_success);
    const maniTransform x = maniPose_GetLocal(part.p, last), y = maniPose_GetLocal(expected.p, last);
    EXPECT_EQ(memcmp(&x, &y, sizeof x), 0);
  }
  // Without room to carry the pose the scratch is too small.
  EXPECT_EQ(maniGraphInstance_Evaluate(i, scratch.p, scratch.size - 32, out.p), mani_errorCapacity);
}

// A mapped clip's root motion names the graph's bone following its own
// alone: a map where no bone follows it is refused at bind.
TEST(GraphSlots, MappedRootMotionWithoutAFollowerRefused) {
  Slots s;
  Clip walk(11, &s.t1.s, maniAdditiveNone, MANI_FIXTURE_CLIP_ROOT_MOTION);  // root motion on bone 0
  Map elsewhere(&s.t1.s, &s.skel.s, 1.0f, 1);                                  // source bone 1 -> target 0
  s.clips = {{"walk", 4, &walk.c, &elsewhere.m}};
  s.databases.clear();
  s.Sync();
  Builder b;
  ASSERT_EQ(maniBuildGraph(b.b, &s.src).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  SlotAssets a(s);
  a.clips = {&walk.c};
  a.maps = {&elsewhere.m};
  Bound bound;
  EXPECT_EQ(bound.Bind(&g, a.Sync()), mani_errorInvalid);
  EXPECT_EQ(bound.binding, nullptr);
}

// -- The JSON text form ----------------------------------------------------------------

// The host's named assets: the source's own slots (clips with their maps).
maniGraphNamedAssets Named(const Slots& s) {
  maniGraphNamedAssets n{};
  n.skeleton = &s.skel.s;
  n.clips = s.clips.data();
  n.clipCount = (uint32_t)s.clips.size();
  n.databases = s.databases.data();
  n.databaseCount = (uint32_t)s.databases.size();
  n.models = s.models.data();
  n.modelCount = (uint32_t)s.models.size();
  n.springSets = s.springs.data();
  n.springSetCount = (uint32_t)s.springs.size();
  return n;
}

std::string Text(Builder& b) {
  size_t size = 0;
  EXPECT_EQ(maniBuilder_CopyBuilt(b.b, nullptr, 0, &size), mani_errorCapacity);
  std::string t(size, '\0');
  EXPECT_EQ(maniBuilder_CopyBuilt(b.b, &t[0], size, &size), mani_success);
  return t;
}

TEST(GraphSlots, JsonRoundTripsEverySlot) {
  Slots s;
  Builder built, written;
  ASSERT_EQ(maniBuildGraph(built.b, &s.src).result, mani_success);
  File file = built.Built();
  ASSERT_EQ(maniWriteGraphJson(written.b, &s.src).result, mani_success);
  const std::string text = Text(written);
  // The lists by name, after the clip slots and before the nodes.
  const size_t clips = text.find("\"clips\""), dbs = text.find("\"databases\""), models = text.find("\"models\"");
  const size_t springs = text.find("\"springSets\""), nodes = text.find("\"nodes\"");
  ASSERT_NE(dbs, std::string::npos) << text;
  ASSERT_NE(models, std::string::npos) << text;
  ASSERT_NE(springs, std::string::npos) << text;
  EXPECT_LT(clips, dbs);
  EXPECT_LT(dbs, models);
  EXPECT_LT(models, springs);
  EXPECT_LT(springs, nodes);
  for (const char* name : {"\"db0\"", "\"db1\"", "\"lm0\"", "\"lm1\"", "\"sp0\"", "\"sp1\""})
    EXPECT_NE(text.find(std::string("\"name\": ") + name), std::string::npos) << name << "\n" << text;
  // Read back against the host's assets of those names: the same file.
  const maniGraphNamedAssets named = Named(s);
  Builder again;
  const maniBuildResult r = maniBuildGraphJson(again.b, text.data(), text.size(), &named);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  File back = again.Built();
  ASSERT_EQ(back.size, file.size);
  EXPECT_EQ(memcmp(back.data(), file.data(), file.size), 0);
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(back.data(), back.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetClipRetargetMap(&g, 4), 0u);  // m1's map from the host's clip of its name
  EXPECT_EQ(maniGraph_GetRetargetMapIdentity(&g, 1), maniRetargetMap_GetIdentity(&s.map2.m));
}

TEST(GraphSlots, JsonLeavesEmptyListsOutAndReadsThemAsEmpty) {
  Slots s;
  s.clips = {s.clips[0]};
  s.databases.clear();
  s.models.clear();
  s.springs.clear();
  s.Sync();
  Builder written;
  ASSERT_EQ(maniWriteGraphJson(written.b, &s.src).result, mani_success);
  const std::string text = Text(written);
  EXPECT_EQ(text.find("databases"), std::string::npos) << text;
  EXPECT_EQ(text.find("models"), std::string::npos) << text;
  EXPECT_EQ(text.find("springSets"), std::string::npos) << text;
  Slots host;  // a host with assets of every kind: none is taken
  const maniGraphNamedAssets named = Named(host);
  const std::string min =
      "{\"format\": \"maul-anim graph\", \"version\": 1, \"clips\": [{\"name\": \"c0\"}], "
      "\"nodes\": [{\"kind\": \"clip\", \"clip\": \"c0\"}], \"output\": 0}";
  Builder b;
  ASSERT_EQ(maniBuildGraphJson(b.b, min.data(), min.size(), &named).result, mani_success);
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetDatabaseCount(&g), 0u);
  EXPECT_EQ(maniGraph_GetModelCount(&g), 0u);
  EXPECT_EQ(maniGraph_GetSpringSetCount(&g), 0u);
  EXPECT_EQ(maniGraph_GetRetargetMapCount(&g), 0u);
}

// A text of one clip slot "c0" and the slot lists given.
std::string SlotText(const std::string& lists) {
  return "{\"format\": \"maul-anim graph\", \"version\": 1, \"clips\": [{\"name\": \"c0\"}, "
         "{\"name\": \"c1\"}, {\"name\": \"c2\"}]" +
         lists + ", \"nodes\": [{\"kind\": \"clip\", \"clip\": \"c0\"}], \"output\": 0}";
}

void ExpectForm(const maniGraphNamedAssets& named, const std::string& text, maniGraphForm form, size_t offset) {
  ASSERT_NE(offset, std::string::npos);
  Builder b;
  const maniBuildResult r = maniBuildGraphJson(b.b, text.data(), text.size(), &named);
  EXPECT_EQ(r.result, mani_errorInvalid) << text;
  EXPECT_EQ(r.reason, (uint32_t)maniBuildReasonForm) << text;
  EXPECT_EQ(r.item, offset) << text;
  EXPECT_EQ(r.other, (uint64_t)form) << text;
}

TEST(GraphSlots, JsonSlotNamesTakeTheHostsFirstAndRefuseTheRest) {
  Slots s;
  s.DropMappedClips();
  maniGraphNamedAssets named = Named(s);
  // Host names given twice: the first is taken.
  std::vector<maniGraphDatabaseSource> dbs = {{"db", 2, &s.db1.d}, {"db", 2, &s.db0.d}};
  std::vector<maniGraphModelSource> models = {{"lm", 2, &s.lm1.m}, {"lm", 2, &s.lm0.m}};
  std::vector<maniGraphSpringSetSource> springs = {{"sp", 2, &s.sp1.set}, {"sp", 2, &s.sp0.set}};
  named.databases = dbs.data();
  named.databaseCount = 2;
  named.models = models.data();
  named.modelCount = 2;
  named.springSets = springs.data();
  named.springSetCount = 2;
  const std::string text = SlotText(
      ", \"databases\": [{\"name\": \"db\"}], \"models\": [{\"name\": \"lm\"}], "
      "\"springSets\": [{\"name\": \"sp\"}]");
  Builder b;
  const maniBuildResult r = maniBuildGraphJson(b.b, text.data(), text.size(), &named);
  ASSERT_EQ(r.result, mani_success) << r.reason << " " << r.item << " " << r.other;
  File file = b.Built();
  maniGraph g;
  ASSERT_EQ(maniOpenGraph(file.data(), file.size, &g).result, mani_success);
  EXPECT_EQ(maniGraph_GetDatabaseIdentity(&g, 0), maniMotionDatabase_GetIdentity(&s.db1.d));
  EXPECT_EQ(maniGraph_GetModelIdentity(&g, 0), maniLearnedModel_GetIdentity(&s.lm1.m));
  EXPECT_EQ(maniGraph_GetSpringSetIdentity(&g, 0), maniSpringSet_GetIdentity(&s.sp1.set));

  // A name no host asset has: Name at the string.
  std::string t = SlotText(", \"databases\": [{\"name\": \"nodb\"}]");
  ExpectForm(named, t, maniGraphFormName, t.find("\"nodb\""));
  t = SlotText(", \"models\": [{\"name\": \"db\"}]");  // a database's name, not a model's
  ExpectForm(named, t, maniGraphFormName, t.find("\"db\""));
  t = SlotText(", \"springSets\": [{\"name\": \"sp\"}, {\"name\": \"sq\"}]");
  ExpectForm(named, t, maniGraphFormName, t.find("\"sq\""));
  // The item's form: a member it does not take, its name left out, a list
  // that is no list.
  t = SlotText(", \"models\": [{\"name\": \"lm\", \"model\": 0}]");
  ExpectForm(named, t, maniGraphFormMember, t.find("\"model\""));
  t = SlotText(", \"springSets\": [{}]");
  ExpectForm(named, t, maniGraphFormMissing, t.find("{}"));
  t = SlotText(", \"databases\": {\"name\": \"db\"}");
  ExpectForm(named, t, maniGraphFormType, t.find("{\"name\": \"db\"}"));
  // The build's refusals name the text's list places: two slots of one name.
  t = SlotText(", \"databases\": [{\"name\": \"db\"}, {\"name\": \"db\"}]");
  {
    Builder d;
    const maniBuildResult dup = maniBuildGraphJson(d.b, t.data(), t.size(), &named);
    EXPECT_EQ(dup.result, mani_errorInvalid);
    EXPECT_EQ(dup.reason, (uint32_t)(maniBuildReasonDuplicateName | maniBuildReasonGraphDatabases));
    EXPECT_EQ(dup.item, 1u);
    EXPECT_EQ(dup.other, 0u);
  }
  // Named lists with a count and NULL.
  maniGraphNamedAssets broken = named;
  broken.models = nullptr;
  Builder nb;
  const maniBuildResult none = maniBuildGraphJson(nb.b, t.data(), t.size(), &broken);
  EXPECT_EQ(none.result, mani_errorInvalid);
  EXPECT_EQ(none.reason, (uint32_t)maniBuildReasonNone);
}

}  // namespace
