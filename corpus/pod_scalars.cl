// pod_scalars.cl — scalar POD kernel arguments of every integer width plus float.
// pod_scalars: nine POD arguments of mixed size/alignment after a buffer; the clustered
//   POD struct is {char@0, uchar@1, short@2, ushort@4, int@8, uint@12, long@16,
//   ulong@24, float@32}. Each work-item stores every argument (sign/zero extended to
//   64 bits, the float as its bit pattern) mixed with its id, so a wrong offset, wrong
//   extension or wrong width shows up. Runs cover the POD storage-buffer default,
//   --pod-ubo, --pod-pushconstant and --cluster-pod-kernel-args=0.
kernel void pod_scalars(global long *out, char c, uchar uc, short s, ushort us,
                        int i, uint u, long l, ulong ul, float f)
{
    int g = get_global_id(0);
    global long *o = out + 10 * g;
    o[0] = c;                   // sign-extended
    o[1] = uc;                  // zero-extended
    o[2] = s;
    o[3] = us;
    o[4] = i + g;
    o[5] = u;
    o[6] = l - g;
    o[7] = (long)(ul >> 1) + g;
    o[8] = as_int(f);
    o[9] = (long)(f * (float)g);
}
