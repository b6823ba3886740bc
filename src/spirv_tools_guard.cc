// SPIRV-Tools' C API over C++ code that throws std::bad_alloc when the system
// refuses memory (a ulimit -v, a container's cap): through k2s's C frames that
// ended in std::terminate and SIGABRT ("terminate called after throwing an
// instance of 'std::bad_alloc'"), not the clear out-of-memory error k2s gives
// for its own allocations. These wrappers turn any exception into
// SPV_ERROR_OUT_OF_MEMORY (bad_alloc) or SPV_ERROR_INTERNAL; src/validate.c
// is their only caller.
#include <new>

#include <spirv-tools/libspirv.h>

extern "C" spv_result_t k2s_spv_validate(spv_const_context ctx, spv_const_validator_options opts,
                                         spv_const_binary bin, spv_diagnostic *diag)
{
  try {
    return spvValidateWithOptions(ctx, opts, bin, diag);
  } catch (const std::bad_alloc &) {
    return SPV_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return SPV_ERROR_INTERNAL;
  }
}

extern "C" spv_result_t k2s_spv_to_text(spv_const_context ctx, const uint32_t *words, size_t n,
                                        uint32_t options, spv_text *text, spv_diagnostic *diag)
{
  try {
    return spvBinaryToText(ctx, words, n, options, text, diag);
  } catch (const std::bad_alloc &) {
    return SPV_ERROR_OUT_OF_MEMORY;
  } catch (...) {
    return SPV_ERROR_INTERNAL;
  }
}
