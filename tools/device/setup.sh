# Sourced at the start of every command on the GPU machine (see tools/device/README.md):
# unpacks the Vulkan and OpenCL loaders carried in .gl/ and registers NVIDIA's OpenCL
# driver as an ICD, so that k2s-run and k2s-clref built here find the GPU there.
for f in .gl/*.deb; do dpkg -x "$f" /; done
ldconfig
if ! ldconfig -p | grep -q libvulkan.so.1; then
  echo "setup.sh: no Vulkan loader (carry .gl)" >&2
fi
if [ -z "${VK_DRIVER_FILES:-}" ] && [ -f /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json ] &&
  ! ls /usr/share/vulkan/icd.d/nvidia* /etc/vulkan/icd.d/nvidia* >/dev/null 2>&1; then
  export VK_DRIVER_FILES=/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json
fi
ocl=$(find /usr/local/nvidia /usr/lib/x86_64-linux-gnu -name 'libnvidia-opencl.so*' 2>/dev/null | head -1)
if [ -n "$ocl" ]; then
  mkdir -p /etc/OpenCL/vendors
  echo "$ocl" >/etc/OpenCL/vendors/nvidia.icd
else
  echo "setup.sh: NVIDIA's libnvidia-opencl.so not found; OpenCL references unavailable" >&2
fi
