// Running a maul command's function in a test: its standard output caught in
// memory and its standard error in a file under the test's temporary
// directory, so refusal messages can be checked. Shared by the command tests.
#ifndef MAUL_TOOLS_CLI_CLI_TESTING_H
#define MAUL_TOOLS_CLI_CLI_TESTING_H

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>
#include <vector>

#include "lib/anim/test/fixtures/data_testing.h"

struct MaulCommandOutcome {
  int status;
  std::string out;
  std::string err;
};

inline MaulCommandOutcome MaulRunCommand(int (*command)(FILE*, int, char**), std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(&a[0]);
  char* buffer = nullptr;
  size_t length = 0;
  FILE* f = open_memstream(&buffer, &length);
  const std::string errPath = MaulTestTempDir() + "/command-stderr.txt";
  fflush(stderr);
  FILE* saved = fdopen(dup(fileno(stderr)), "w");
  EXPECT_NE(freopen(errPath.c_str(), "w", stderr), nullptr);
  MaulCommandOutcome r;
  r.status = command(f, static_cast<int>(argv.size()), argv.data());
  fflush(stderr);
  dup2(fileno(saved), fileno(stderr));
  fclose(saved);
  fclose(f);
  r.out.assign(buffer, length);
  free(buffer);
  r.err = MaulReadFile(errPath);
  return r;
}

#endif
