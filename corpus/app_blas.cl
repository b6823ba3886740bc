// Application-style BLAS level 1/2 kernels (the shape of clBLAS/CLBlast code):
// saxpy with a stride and an offset, row-major sgemv with one work-group per row
// reducing in local memory, and dgemv_t (transposed, one work-item per column).
#pragma OPENCL FP_CONTRACT OFF

kernel void saxpy(const int n, const float alpha, global const float *x, const int incx,
                  global float *y, const int incy, const int offy)
{
    int i = get_global_id(0);
    if (i < n)
        y[offy + i * incy] = alpha * x[i * incx] + y[offy + i * incy];
}

// y = alpha * A * x + beta * y; A is m x n row-major with leading dimension lda.
// One work-group per row; each work-item sums a strided slice, then a fixed tree.
kernel void sgemv_rows(const int m, const int n, const float alpha, global const float *A,
                       const int lda, global const float *x, const float beta,
                       global float *y, local float *partial)
{
    int row = get_group_id(0);
    int lid = get_local_id(0);
    int lsz = get_local_size(0);
    float acc = 0.0f;
    for (int j = lid; j < n; j += lsz)
        acc += A[row * lda + j] * x[j];
    partial[lid] = acc;
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int s = lsz / 2; s > 0; s >>= 1) {
        if (lid < s)
            partial[lid] += partial[lid + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (lid == 0 && row < m)
        y[row] = alpha * partial[0] + beta * y[row];
}

// y = A^T * x in double, A is m x n row-major: one work-item per column j.
kernel void dgemv_t(const int m, const int n, global const double *A, global const double *x,
                    global double *y)
{
    int j = get_global_id(0);
    if (j >= n)
        return;
    double acc = 0.0;
    for (int i = 0; i < m; i++)
        acc += A[i * n + j] * x[i];
    y[j] = acc;
}
