// read_write images on devices without shaderStorageImageReadWithoutFormat: with
// --no-storage-image-read-without-format a read image needs --image-format (a clear error
// naming the kernel, the argument and the switch otherwise); the storage image then has
// that format, the module no StorageImageReadWithoutFormat capability, the JSON and the
// descriptor map carry ORDER:TYPE, and k2s-run refuses an image of another format.
// RUN: clang-15 -cc1 -triple spir64 -no-opaque-pointers -emit-llvm-bc -cl-std=CL2.0 -finclude-default-header -O2 %s -o %t.bc
// RUN: llvm-spirv-15 %t.bc -o %t.spv
// RUN: %k2s %t.spv -o %t.out.spv --no-storage-image-read-without-format --image-format=k:img=rgba:float --image-format=k:1=r:uint16 --reflect=%t.json --descriptormap=%t.csv
// RUN: spirv-val --target-env vulkan1.1 %t.out.spv
// RUN: spirv-dis %t.out.spv | FileCheck %s
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=CSV < %t.csv
// Without a format the module reads without one (default) or is refused (the switch):
// RUN: %k2s %t.spv -o %t.unknown.spv
// RUN: spirv-dis %t.unknown.spv | FileCheck %s --check-prefix=UNKNOWN
// RUN: not %k2s %t.spv -o %t.bad.spv --no-storage-image-read-without-format --image-format=k:img=rgba:float 2>&1 | FileCheck %s --check-prefix=MISSING
// RUN: not %k2s %t.spv -o %t.bad.spv --image-format=k:img=rgba:int32 2>&1 | FileCheck %s --check-prefix=KIND
// RUN: not %k2s %t.spv -o %t.bad.spv --image-format=k:src=rgba:float 2>&1 | FileCheck %s --check-prefix=RO
// RUN: not %k2s %t.spv -o %t.bad.spv --image-format=k:nope=rgba:float 2>&1 | FileCheck %s --check-prefix=NOARG
// RUN: not %k2s %t.spv -o %t.bad.spv --image-format=k:img=bgra:float 2>&1 | FileCheck %s --check-prefix=BGRA
// RUN: not %k2s %t.spv -o %t.bad.spv --image-format=k-img 2>&1 | FileCheck %s --check-prefix=USAGE
// k2s-run binds the image and checks its format (lavapipe runs this without the feature):
// RUN: %k2s_run %t.out.spv --kernel k --global 2 --arg image1d:rgba:float:2=iota --arg image1d:r:uint16:2=iota --arg image1d:rgba:float:2=fill:1 | FileCheck %s --check-prefix=RAN
// RUN: not %k2s_run %t.out.spv --kernel k --global 2 --arg image1d:rgba:half:2=iota --arg image1d:r:uint16:2=iota --arg image1d:rgba:float:2=fill:1 2>&1 | FileCheck %s --check-prefix=WRONG

// CHECK-NOT: OpCapability StorageImageReadWithoutFormat
// CHECK-DAG: OpTypeImage %float 1D 0 0 0 2 Rgba32f
// CHECK-DAG: OpTypeImage %uint 1D 0 0 0 2 R16ui
// JSON: "name": "img", "ordinal": 0, "kind": "rw_image", "image_format": "rgba:float"
// JSON: "name": "cnt", "ordinal": 1, "kind": "rw_image", "image_format": "r:uint16"
// CSV: kernel,k,arg,img,argOrdinal,0,descriptorSet,0,binding,0,offset,0,argKind,rw_image,imageFormat,rgba:float
// CSV: kernel,k,arg,cnt,argOrdinal,1,descriptorSet,0,binding,1,offset,0,argKind,rw_image,imageFormat,r:uint16
// CSV: kernel,k,arg,src,argOrdinal,2,descriptorSet,0,binding,2,offset,0,argKind,ro_image{{$}}
// UNKNOWN: OpCapability StorageImageReadWithoutFormat
// UNKNOWN: OpTypeImage %float 1D 0 0 0 2 Unknown
// MISSING: kernel 'k' reads read_write image argument 'cnt', and the device lacks shaderStorageImageReadWithoutFormat (--no-storage-image-read-without-format): give its format with --image-format=k:cnt=ORDER:TYPE
// KIND: --image-format rgba:int32 for image argument 'img' of kernel 'k', which the kernel accesses as float data
// RO: --image-format names read_only image argument 'src' of kernel 'k'
// NOARG: kernel 'k' has no image argument 'nope'
// BGRA: not a storage image format
// USAGE: --image-format takes KERNEL:ARG=ORDER:TYPE, not 'k-img'
// RAN: arg 0: 0 2 4 6 13 15 17 19
// RAN: arg 1: 1 2
// WRONG: argument 0 ('image1d:rgba:half:2=iota'): the shader's storage image has a fixed format

kernel void k(read_write image1d_t img, read_write image1d_t cnt, read_only image1d_t src)
{
  int x = get_global_id(0);
  write_imagef(img, x, read_imagef(img, x) * 2.0f + read_imagef(src, x) * (float)x * 5.0f);
  write_imageui(cnt, x, read_imageui(cnt, x) + 1);
}
