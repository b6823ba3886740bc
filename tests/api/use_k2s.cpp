// The same through C++: the header is usable from C++ (extern "C"), and a
// result owned by a unique_ptr frees itself.
#include <k2s/k2s.h>

#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <vector>

int main(int argc, char **argv)
{
  if (argc != 2)
    return 2;
  std::ifstream in(argv[1], std::ios::binary);
  std::vector<char> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  k2s_options o;
  k2s_options_init(&o);
  k2s_result *raw = nullptr;
  k2s_status s = k2s_translate(words.data(), words.size(), &o, &raw);
  std::unique_ptr<k2s_result, void (*)(k2s_result *)> r(raw, k2s_result_free);
  size_t n = 0;
  if (s != K2S_OK || !k2s_result_words(r.get(), &n) || n < 5)
    return 1;
  // The reflection model, owned by a unique_ptr too.
  const uint32_t *out = k2s_result_words(r.get(), &n);
  k2s_reflection *raw_refl = nullptr;
  k2s_status rs = k2s_reflection_read(out, n, &raw_refl);
  std::unique_ptr<k2s_reflection, void (*)(k2s_reflection *)> refl(raw_refl, k2s_reflection_free);
  if (rs != K2S_OK || refl->n_kernels != 1 || refl->kernels[0].n_args != 3 ||
      std::strcmp(refl->kernels[0].args[2].name, "c") != 0)
    return 1;
  size_t passes = 0;
  for (const char *const *p = k2s_pass_names(); *p; p++)
    passes += k2s_pass_description(*p) != nullptr;
  std::printf("k2s %s from C++: %zu words, %zu passes\n", k2s_version(), n, passes);
  return passes > 0 ? 0 : 1;
}
