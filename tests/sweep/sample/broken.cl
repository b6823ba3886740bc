// sweep sample: not OpenCL C (frontend class: the sweep must not count it against k2s).
kernel void broken(global int *p) { p[0] = undeclared_identifier; }
