/* k2s-validator: the k2s command's SPIRV-Tools, in a process of its own. The
 * command links no SPIRV-Tools (its start-up, validating or not, would relocate
 * SPIRV-Tools' and libstdc++'s tables and set up libstdc++'s streams); when it
 * validates or disassembles it starts this helper once per thread and sends it
 * the modules over a socket (src/validate.c has both ends of the protocol).
 * Not a command of its own: it serves requests on its standard input. */
#include "k2s_internal.h"

int k2s_validator_serve(int fd); /* src/validate.c */

int main(void)
{
  return k2s_validator_serve(0);
}
