/* Instance and device creation: picks a device and enables what the module needs. */
#include "vk_host.h"

#include "argspec.h"

#include <spirv/unified1/spirv.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned validation_errors;

unsigned vk_validation_errors(void) { return validation_errors; }

const char *vk_result_name(VkResult r)
{
    switch (r) {
#define CASE(x) \
    case x: return #x
        CASE(VK_SUCCESS);
        CASE(VK_NOT_READY);
        CASE(VK_TIMEOUT);
        CASE(VK_INCOMPLETE);
        CASE(VK_ERROR_OUT_OF_HOST_MEMORY);
        CASE(VK_ERROR_OUT_OF_DEVICE_MEMORY);
        CASE(VK_ERROR_INITIALIZATION_FAILED);
        CASE(VK_ERROR_DEVICE_LOST);
        CASE(VK_ERROR_MEMORY_MAP_FAILED);
        CASE(VK_ERROR_LAYER_NOT_PRESENT);
        CASE(VK_ERROR_EXTENSION_NOT_PRESENT);
        CASE(VK_ERROR_FEATURE_NOT_PRESENT);
        CASE(VK_ERROR_INCOMPATIBLE_DRIVER);
        CASE(VK_ERROR_TOO_MANY_OBJECTS);
        CASE(VK_ERROR_FORMAT_NOT_SUPPORTED);
        CASE(VK_ERROR_UNKNOWN);
        CASE(VK_ERROR_OUT_OF_POOL_MEMORY);
        CASE(VK_ERROR_INVALID_SHADER_NV);
#undef CASE
    default: return "VkResult error";
    }
}

/* ---- instance ------------------------------------------------------------------------------ */

static VKAPI_ATTR VkBool32 VKAPI_CALL on_validation(VkDebugUtilsMessageSeverityFlagBitsEXT sev,
                                                     VkDebugUtilsMessageTypeFlagsEXT type,
                                                     const VkDebugUtilsMessengerCallbackDataEXT *d,
                                                     void *user)
{
    (void)type;
    (void)user;
    if (sev & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT)
        validation_errors++;
    fprintf(stderr, "%s: validation: %s\n", k2s_prog(), d->pMessage ? d->pMessage : "?");
    return VK_FALSE;
}

static bool instance_has_ext(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceExtensionProperties(NULL, &n, NULL) != VK_SUCCESS)
        return false;
    VkExtensionProperties *exts = calloc(n ? n : 1, sizeof *exts);
    bool found = false;
    if (exts && vkEnumerateInstanceExtensionProperties(NULL, &n, exts) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(exts[i].extensionName, name) == 0;
    free(exts);
    return found;
}

static bool has_layer(const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateInstanceLayerProperties(&n, NULL) != VK_SUCCESS)
        return false;
    VkLayerProperties *layers = calloc(n ? n : 1, sizeof *layers);
    bool found = false;
    if (layers && vkEnumerateInstanceLayerProperties(&n, layers) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(layers[i].layerName, name) == 0;
    free(layers);
    return found;
}

static uint32_t instance_version(void)
{
    uint32_t v = VK_API_VERSION_1_0;
    if (vkEnumerateInstanceVersion(&v) != VK_SUCCESS)
        v = VK_API_VERSION_1_0;
    /* Ask for at most what this program was written against. */
    return v >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_MAKE_API_VERSION(0, 1, VK_API_VERSION_MINOR(v), 0);
}

static void create_messenger(struct vk_host *h)
{
    PFN_vkCreateDebugUtilsMessengerEXT create = (PFN_vkCreateDebugUtilsMessengerEXT)
        vkGetInstanceProcAddr(h->instance, "vkCreateDebugUtilsMessengerEXT");
    VkDebugUtilsMessengerCreateInfoEXT info = {
        .sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT,
        .messageSeverity = VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT |
                           VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT,
        .messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_GENERAL_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT |
                       VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT,
        .pfnUserCallback = on_validation,
    };
    if (!create || create(h->instance, &info, NULL, &h->messenger) != VK_SUCCESS)
        k2s_warn("could not install the validation message callback");
}

static bool create_instance(struct vk_host *h, const struct vk_options *opt)
{
    const char *exts[2], *layers[1];
    uint32_t next = 0, nlayers = 0;
    VkInstanceCreateFlags flags = 0;
    /* Portability drivers (MoltenVK) are only listed when the app opts in. */
    if (instance_has_ext("VK_KHR_portability_enumeration")) {
        exts[next++] = "VK_KHR_portability_enumeration";
        flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
    }
    if (opt->validate) {
        if (!has_layer("VK_LAYER_KHRONOS_validation") ||
            !instance_has_ext(VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
            k2s_error("--validate: VK_LAYER_KHRONOS_validation or VK_EXT_debug_utils is not "
                      "installed");
            return false;
        }
        layers[nlayers++] = "VK_LAYER_KHRONOS_validation";
        exts[next++] = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
    }
    VkApplicationInfo app = {
        .sType = VK_STRUCTURE_TYPE_APPLICATION_INFO,
        .pApplicationName = "k2s-run",
        .apiVersion = instance_version(),
    };
    VkInstanceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO,
        .flags = flags,
        .pApplicationInfo = &app,
        .enabledLayerCount = nlayers,
        .ppEnabledLayerNames = layers,
        .enabledExtensionCount = next,
        .ppEnabledExtensionNames = exts,
    };
    VkResult r = vkCreateInstance(&info, NULL, &h->instance);
    if (r != VK_SUCCESS) {
        k2s_error("vkCreateInstance failed: %s (is a Vulkan driver installed?)",
                  vk_result_name(r));
        return false;
    }
    h->api_version = app.apiVersion;
    if (opt->validate)
        create_messenger(h);
    return true;
}

/* ---- device choice --------------------------------------------------------------------------- */

static const char *type_name(VkPhysicalDeviceType t)
{
    switch (t) {
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return "integrated GPU";
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return "discrete GPU";
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return "virtual GPU";
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return "CPU";
    default: return "other";
    }
}

static bool compute_family(VkPhysicalDevice d, uint32_t *family)
{
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, NULL);
    VkQueueFamilyProperties *fams = calloc(n ? n : 1, sizeof *fams);
    bool found = false;
    if (!fams)
        return false;
    vkGetPhysicalDeviceQueueFamilyProperties(d, &n, fams);
    for (uint32_t i = 0; i < n && !found; i++) {
        if (fams[i].queueFlags & VK_QUEUE_COMPUTE_BIT) {
            *family = i;
            found = true;
        }
    }
    free(fams);
    return found;
}

static bool enumerate(VkInstance inst, VkPhysicalDevice **devs, uint32_t *n)
{
    *n = 0;
    if (vkEnumeratePhysicalDevices(inst, n, NULL) != VK_SUCCESS || *n == 0) {
        k2s_error("no Vulkan physical devices found");
        return false;
    }
    *devs = calloc(*n, sizeof **devs);
    if (!*devs || vkEnumeratePhysicalDevices(inst, n, *devs) < 0) {
        k2s_error("vkEnumeratePhysicalDevices failed");
        free(*devs);
        return false;
    }
    return true;
}

/* A discrete GPU when there is one, else the CPU driver (lavapipe), else the first. */
static uint32_t default_device(VkPhysicalDevice *devs, uint32_t n)
{
    static const VkPhysicalDeviceType order[] = {VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU,
                                                 VK_PHYSICAL_DEVICE_TYPE_CPU};
    uint32_t family;
    for (size_t o = 0; o < 2; o++) {
        for (uint32_t i = 0; i < n; i++) {
            VkPhysicalDeviceProperties p;
            vkGetPhysicalDeviceProperties(devs[i], &p);
            if (p.deviceType == order[o] && compute_family(devs[i], &family))
                return i;
        }
    }
    return 0;
}

static bool pick_device(VkPhysicalDevice *devs, uint32_t n, const char *want, uint32_t *index)
{
    if (!want) {
        *index = default_device(devs, n);
        return true;
    }
    char *end;
    unsigned long v = strtoul(want, &end, 10);
    if (*want && *end == '\0') {
        if (v >= n) {
            k2s_error("--device %s: no such device index (%u device%s, see --list-devices)", want, n,
                      n == 1 ? "" : "s");
            return false;
        }
        *index = (uint32_t)v;
        return true;
    }
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devs[i], &p);
        if (strstr(p.deviceName, want)) {
            *index = i;
            return true;
        }
    }
    k2s_error("--device %s: no device index or name matches (see --list-devices)", want);
    return false;
}

bool vk_list_devices(const struct vk_options *opt)
{
    struct vk_host h = {0};
    VkPhysicalDevice *devs;
    uint32_t n;
    if (!create_instance(&h, opt) || !enumerate(h.instance, &devs, &n)) {
        vk_host_destroy(&h);
        return false;
    }
    uint32_t chosen = default_device(devs, n);
    for (uint32_t i = 0; i < n; i++) {
        VkPhysicalDeviceProperties p;
        vkGetPhysicalDeviceProperties(devs[i], &p);
        printf("%c %u: %s (%s, Vulkan %u.%u.%u)\n", i == chosen ? '*' : ' ', i, p.deviceName,
               type_name(p.deviceType), VK_API_VERSION_MAJOR(p.apiVersion),
               VK_API_VERSION_MINOR(p.apiVersion), VK_API_VERSION_PATCH(p.apiVersion));
    }
    free(devs);
    vk_host_destroy(&h);
    return true;
}

/* ---- features ----------------------------------------------------------------------------------- */

enum feature_struct { FS_10, FS_11, FS_12, FS_13, FS_ATOMIC_FLOAT, FS_ATOMIC_FLOAT2, FS_COUNT };

struct feature_chain {
    VkPhysicalDeviceFeatures2 f2;
    VkPhysicalDeviceVulkan11Features v11;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan13Features v13;
    VkPhysicalDeviceShaderAtomicFloatFeaturesEXT af;
    VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT af2;
    bool present[FS_COUNT];
};

/* Pseudo-capabilities for needs that do not come from an OpCapability. */
enum {
    NEED_MAINTENANCE4 = 0x7fff0001,  /* LocalSizeId execution mode */
    NEED_ZERO_INIT_WORKGROUP,        /* Workgroup variable with an initializer */
    NEED_BUFFER_DEVICE_ADDRESS,      /* pointer arguments / relocations */
    NEED_ROBUST_ACCESS,              /* always asked for, optional */
    NEED_SCALAR_LAYOUT,              /* always asked for, optional: nothing in a module says
                                        that it relies on the scalar block layout */
    NEED_FLOAT_ATOMIC = 0x7fff0100,  /* + the k2s_module_info.float_atomics bit index */
};

struct feature_row {
    uint32_t cap;
    enum feature_struct fs;
    size_t offset;
    const char *name;
    bool optional;
};

#define ROW(cap, fs, type, field, opt) {cap, fs, offsetof(type, field), #field, opt}
#define F10(cap, field) ROW(cap, FS_10, VkPhysicalDeviceFeatures, field, false)
#define F11(cap, field) ROW(cap, FS_11, VkPhysicalDeviceVulkan11Features, field, false)
#define F12(cap, field) ROW(cap, FS_12, VkPhysicalDeviceVulkan12Features, field, false)
#define F13(cap, field) ROW(cap, FS_13, VkPhysicalDeviceVulkan13Features, field, false)
#define FAF(bit, field) ROW(NEED_FLOAT_ATOMIC + (bit), FS_ATOMIC_FLOAT, VkPhysicalDeviceShaderAtomicFloatFeaturesEXT, field, false)
#define FAF2(bit, field) ROW(NEED_FLOAT_ATOMIC + (bit), FS_ATOMIC_FLOAT2, VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT, field, false)

static const struct feature_row feature_rows[] = {
    F10(SpvCapabilityFloat64, shaderFloat64),
    F10(SpvCapabilityInt64, shaderInt64),
    F10(SpvCapabilityInt16, shaderInt16),
    F10(SpvCapabilityStorageImageReadWithoutFormat, shaderStorageImageReadWithoutFormat),
    F10(SpvCapabilityStorageImageWriteWithoutFormat, shaderStorageImageWriteWithoutFormat),
    ROW(NEED_ROBUST_ACCESS, FS_10, VkPhysicalDeviceFeatures, robustBufferAccess, true),
    F11(SpvCapabilityStorageBuffer16BitAccess, storageBuffer16BitAccess),
    F11(SpvCapabilityUniformAndStorageBuffer16BitAccess, uniformAndStorageBuffer16BitAccess),
    F11(SpvCapabilityStoragePushConstant16, storagePushConstant16),
    F11(SpvCapabilityVariablePointersStorageBuffer, variablePointersStorageBuffer),
    F11(SpvCapabilityVariablePointers, variablePointersStorageBuffer),
    F11(SpvCapabilityVariablePointers, variablePointers),
    F12(SpvCapabilityInt64Atomics, shaderBufferInt64Atomics),
    ROW(SpvCapabilityInt64Atomics, FS_12, VkPhysicalDeviceVulkan12Features,
        shaderSharedInt64Atomics, true),
    F12(SpvCapabilityFloat16, shaderFloat16),
    F12(SpvCapabilityInt8, shaderInt8),
    F12(SpvCapabilityStorageBuffer8BitAccess, storageBuffer8BitAccess),
    F12(SpvCapabilityUniformAndStorageBuffer8BitAccess, uniformAndStorageBuffer8BitAccess),
    F12(SpvCapabilityStoragePushConstant8, storagePushConstant8),
    F12(SpvCapabilityPhysicalStorageBufferAddresses, bufferDeviceAddress),
    F12(NEED_BUFFER_DEVICE_ADDRESS, bufferDeviceAddress),
    ROW(NEED_SCALAR_LAYOUT, FS_12, VkPhysicalDeviceVulkan12Features, scalarBlockLayout, true),
    F12(SpvCapabilityVulkanMemoryModel, vulkanMemoryModel),
    F12(SpvCapabilityVulkanMemoryModelDeviceScope, vulkanMemoryModelDeviceScope),
    F13(SpvCapabilityDotProductInputAll, shaderIntegerDotProduct),
    F13(SpvCapabilityDotProductInput4x8Bit, shaderIntegerDotProduct),
    F13(SpvCapabilityDotProductInput4x8BitPacked, shaderIntegerDotProduct),
    F13(SpvCapabilityDotProduct, shaderIntegerDotProduct),
    F13(NEED_MAINTENANCE4, maintenance4),
    F13(NEED_ZERO_INIT_WORKGROUP, shaderZeroInitializeWorkgroupMemory),
    /* Sub-groups (docs/runtime-abi.md, "Sub-groups"): 8/16/64-bit subgroup operations, and
     * full sub-groups for the OpenCL sub-group contract; optional, used where present. */
    ROW(SpvCapabilityGroupNonUniform, FS_12, VkPhysicalDeviceVulkan12Features,
        shaderSubgroupExtendedTypes, true),
    ROW(SpvCapabilityGroupNonUniform, FS_13, VkPhysicalDeviceVulkan13Features,
        computeFullSubgroups, true),
    /* Float atomics, by the memory they work on (k2s_module_info.float_atomics bit index:
     * 6 * min_max + 2 * (16/32/64-bit) + shared), as the reflection's device_features. */
    FAF2(0, shaderBufferFloat16AtomicAdd),
    FAF2(1, shaderSharedFloat16AtomicAdd),
    FAF(2, shaderBufferFloat32AtomicAdd),
    FAF(3, shaderSharedFloat32AtomicAdd),
    FAF(4, shaderBufferFloat64AtomicAdd),
    FAF(5, shaderSharedFloat64AtomicAdd),
    FAF2(6, shaderBufferFloat16AtomicMinMax),
    FAF2(7, shaderSharedFloat16AtomicMinMax),
    FAF2(8, shaderBufferFloat32AtomicMinMax),
    FAF2(9, shaderSharedFloat32AtomicMinMax),
    FAF2(10, shaderBufferFloat64AtomicMinMax),
    FAF2(11, shaderSharedFloat64AtomicMinMax),
};

/* Capabilities that need no device feature (or are checked elsewhere). */
static const uint32_t free_caps[] = {
    SpvCapabilityMatrix, SpvCapabilityShader,
    SpvCapabilityImageQuery, SpvCapabilitySampled1D, SpvCapabilityImage1D, /* core Vulkan */
    SpvCapabilitySampledBuffer, SpvCapabilityImageBuffer,
    SpvCapabilityGroupNonUniform, SpvCapabilityGroupNonUniformVote,
    SpvCapabilityGroupNonUniformArithmetic, SpvCapabilityGroupNonUniformBallot,
    SpvCapabilityGroupNonUniformShuffle, SpvCapabilityGroupNonUniformShuffleRelative,
    SpvCapabilityGroupNonUniformClustered, SpvCapabilityGroupNonUniformQuad,
    SpvCapabilityDenormPreserve, SpvCapabilityDenormFlushToZero,
    SpvCapabilitySignedZeroInfNanPreserve, SpvCapabilityRoundingModeRTE,
    SpvCapabilityRoundingModeRTZ,
    /* checked by what each float atomic works on (NEED_FLOAT_ATOMIC) */
    SpvCapabilityAtomicFloat16AddEXT, SpvCapabilityAtomicFloat32AddEXT,
    SpvCapabilityAtomicFloat64AddEXT, SpvCapabilityAtomicFloat16MinMaxEXT,
    SpvCapabilityAtomicFloat32MinMaxEXT, SpvCapabilityAtomicFloat64MinMaxEXT,
};

static void *struct_of(struct feature_chain *c, enum feature_struct fs)
{
    switch (fs) {
    case FS_10: return &c->f2.features;
    case FS_11: return &c->v11;
    case FS_12: return &c->v12;
    case FS_13: return &c->v13;
    case FS_ATOMIC_FLOAT: return &c->af;
    default: return &c->af2;
    }
}

static VkBool32 *field_of(struct feature_chain *c, const struct feature_row *row)
{
    return (VkBool32 *)((char *)struct_of(c, row->fs) + row->offset);
}

/* Links only the structures the device's API version (and extensions) allow. */
static void chain_init(struct feature_chain *c, uint32_t api, bool atomic_float,
                       bool atomic_float2)
{
    memset(c, 0, sizeof *c);
    c->f2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    c->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    c->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    c->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    c->af.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT;
    c->af2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT;
    c->present[FS_10] = true;
    c->present[FS_11] = c->present[FS_12] = api >= VK_API_VERSION_1_2;
    c->present[FS_13] = api >= VK_API_VERSION_1_3;
    c->present[FS_ATOMIC_FLOAT] = atomic_float;
    c->present[FS_ATOMIC_FLOAT2] = atomic_float2;
    void **tail = &c->f2.pNext;
    for (int fs = FS_11; fs < FS_COUNT; fs++) {
        if (!c->present[fs])
            continue;
        VkBaseOutStructure *s = struct_of(c, (enum feature_struct)fs);
        *tail = s;
        tail = (void **)&s->pNext;
    }
}

/* ---- extensions --------------------------------------------------------------------------------- */

struct ext_row {
    const char *spv;
    const char *vk;
    uint32_t core; /* Vulkan version that made it core, 0 = never */
};

static const struct ext_row ext_rows[] = {
    {"SPV_KHR_storage_buffer_storage_class", "VK_KHR_storage_buffer_storage_class", VK_API_VERSION_1_1},
    {"SPV_KHR_variable_pointers", "VK_KHR_variable_pointers", VK_API_VERSION_1_1},
    {"SPV_KHR_16bit_storage", "VK_KHR_16bit_storage", VK_API_VERSION_1_1},
    {"SPV_KHR_8bit_storage", "VK_KHR_8bit_storage", VK_API_VERSION_1_2},
    {"SPV_KHR_float_controls", "VK_KHR_shader_float_controls", VK_API_VERSION_1_2},
    {"SPV_KHR_vulkan_memory_model", "VK_KHR_vulkan_memory_model", VK_API_VERSION_1_2},
    {"SPV_KHR_physical_storage_buffer", "VK_KHR_buffer_device_address", VK_API_VERSION_1_2},
    {"SPV_KHR_no_integer_wrap_decoration", "VK_KHR_spirv_1_4", VK_API_VERSION_1_2},
    {"SPV_KHR_non_semantic_info", "VK_KHR_shader_non_semantic_info", VK_API_VERSION_1_3},
    {"SPV_KHR_integer_dot_product", "VK_KHR_shader_integer_dot_product", VK_API_VERSION_1_3},
    {"SPV_KHR_terminate_invocation", "VK_KHR_shader_terminate_invocation", VK_API_VERSION_1_3},
    {"SPV_EXT_shader_atomic_float_add", "VK_EXT_shader_atomic_float", 0},
    {"SPV_EXT_shader_atomic_float16_add", "VK_EXT_shader_atomic_float2", 0},
    {"SPV_EXT_shader_atomic_float_min_max", "VK_EXT_shader_atomic_float2", 0},
    {"SPV_KHR_shader_clock", "VK_KHR_shader_clock", 0},
};

struct ext_list {
    const char *names[32];
    uint32_t n;
};

static void ext_add(struct ext_list *l, const char *name)
{
    for (uint32_t i = 0; i < l->n; i++)
        if (strcmp(l->names[i], name) == 0)
            return;
    if (l->n < 32)
        l->names[l->n++] = name;
}

static bool device_has_ext(VkPhysicalDevice d, const char *name)
{
    uint32_t n = 0;
    if (vkEnumerateDeviceExtensionProperties(d, NULL, &n, NULL) != VK_SUCCESS)
        return false;
    VkExtensionProperties *exts = calloc(n ? n : 1, sizeof *exts);
    bool found = false;
    if (exts && vkEnumerateDeviceExtensionProperties(d, NULL, &n, exts) == VK_SUCCESS)
        for (uint32_t i = 0; i < n && !found; i++)
            found = strcmp(exts[i].extensionName, name) == 0;
    free(exts);
    return found;
}

/* Maps each SPV_* extension of the module to a device extension, unless core already. */
static bool select_extensions(struct vk_host *h, const k2s_module_info *info,
                              struct ext_list *out)
{
    h->keep_nonsemantic = true;
    for (size_t i = 0; i < info->n_extensions; i++) {
        const struct ext_row *row = NULL;
        for (size_t j = 0; j < sizeof ext_rows / sizeof ext_rows[0]; j++)
            if (strcmp(info->extensions[i], ext_rows[j].spv) == 0)
                row = &ext_rows[j];
        if (!row) {
            k2s_warn("SPIR-V extension %s is not known to k2s-run; not checked",
                     info->extensions[i]);
            continue;
        }
        if (row->core && h->api_version >= row->core)
            continue;
        if (device_has_ext(h->phys, row->vk)) {
            ext_add(out, row->vk);
            continue;
        }
        if (strcmp(row->spv, "SPV_KHR_non_semantic_info") == 0) {
            /* Reflection is for the host only; the driver can run the module without it. */
            h->keep_nonsemantic = false;
            continue;
        }
        k2s_error("the module uses %s, but device '%s' lacks %s%s", row->spv, h->props.deviceName,
                  row->vk,
                  strncmp(row->spv, "SPV_EXT_shader_atomic_float", 27) == 0
                      ? " (translate without --float-atomics, or with fewer kinds, for "
                        "compare-exchange loops)"
                      : "");
        return false;
    }
    if (info->uses_nonsemantic && h->api_version < VK_API_VERSION_1_3 &&
        !device_has_ext(h->phys, "VK_KHR_shader_non_semantic_info"))
        h->keep_nonsemantic = false;
    return true;
}

static bool spirv_version_ok(struct vk_host *h, uint32_t version, struct ext_list *exts)
{
    uint32_t minor = (version >> 8) & 0xff, major = (version >> 16) & 0xff;
    uint32_t max_minor = h->api_version >= VK_API_VERSION_1_3   ? 6
                         : h->api_version >= VK_API_VERSION_1_2 ? 5
                                                                : 3;
    if (major == 1 && minor == 4 && max_minor == 3 && device_has_ext(h->phys, "VK_KHR_spirv_1_4")) {
        ext_add(exts, "VK_KHR_spirv_1_4");
        h->spirv_1_4 = true;
        return true;
    }
    if (major != 1 || minor > max_minor) {
        k2s_error("the module is SPIR-V %u.%u, but device '%s' with Vulkan %u.%u accepts at most "
                  "SPIR-V 1.%u (translate for a lower --target-env)",
                  major, minor, h->props.deviceName, VK_API_VERSION_MAJOR(h->api_version),
                  VK_API_VERSION_MINOR(h->api_version), max_minor);
        return false;
    }
    return true;
}

/* ---- needs ---------------------------------------------------------------------------------- */

static bool is_free_cap(uint32_t cap)
{
    for (size_t i = 0; i < sizeof free_caps / sizeof free_caps[0]; i++)
        if (free_caps[i] == cap)
            return true;
    return false;
}

static bool has_row(uint32_t cap)
{
    for (size_t i = 0; i < sizeof feature_rows / sizeof feature_rows[0]; i++)
        if (feature_rows[i].cap == cap)
            return true;
    return false;
}

static bool enable_need(struct vk_host *h, uint32_t cap, struct feature_chain *have,
                        struct feature_chain *want)
{
    for (size_t i = 0; i < sizeof feature_rows / sizeof feature_rows[0]; i++) {
        const struct feature_row *row = &feature_rows[i];
        if (row->cap != cap)
            continue;
        bool supported = have->present[row->fs] && *field_of(have, row);
        if (supported) {
            *field_of(want, row) = VK_TRUE;
            continue;
        }
        if (row->optional)
            continue;
        if (cap >= NEED_FLOAT_ATOMIC)
            k2s_error("the module's float atomics need the Vulkan feature %s (%s), which device "
                      "'%s' does not support (translate without --float-atomics, or with fewer "
                      "kinds, for compare-exchange loops)",
                      row->name,
                      row->fs == FS_ATOMIC_FLOAT ? "VK_EXT_shader_atomic_float"
                                                 : "VK_EXT_shader_atomic_float2",
                      h->props.deviceName);
        else if (cap >= NEED_MAINTENANCE4)
            k2s_error("the module needs the Vulkan feature %s, which device '%s' does not "
                      "support", row->name, h->props.deviceName);
        else
          k2s_error("the module declares OpCapability %u, which needs the Vulkan feature %s; "
                    "device '%s' does not support it%s",
                    cap, row->name, h->props.deviceName,
                    cap == SpvCapabilityStorageImageReadWithoutFormat
                        ? " (a read_write image the kernel reads: translate with k2s "
                          "--no-storage-image-read-without-format and "
                          "--image-format=KERNEL:ARG=ORDER:TYPE)"
                        : "");
        return false;
    }
    return true;
}

static bool check_cap(uint32_t cap)
{
    if (cap == SpvCapabilityKernel || cap == SpvCapabilityAddresses ||
        cap == SpvCapabilityLinkage) {
        k2s_error("the module declares OpCapability %u (an OpenCL/linkage capability): it is "
                  "not a Vulkan compute module", cap);
        return false;
    }
    if (!is_free_cap(cap) && !has_row(cap))
        k2s_warn("OpCapability %u is not known to k2s-run; not checked", cap);
    return true;
}

/* Sub-group operations are properties, not features: check them here. */
static bool check_subgroups(const struct vk_host *h, const k2s_module_info *info)
{
    static const struct {
        uint32_t cap;
        VkSubgroupFeatureFlags bit;
    } ops[] = {
        {SpvCapabilityGroupNonUniform, VK_SUBGROUP_FEATURE_BASIC_BIT},
        {SpvCapabilityGroupNonUniformVote, VK_SUBGROUP_FEATURE_VOTE_BIT},
        {SpvCapabilityGroupNonUniformArithmetic, VK_SUBGROUP_FEATURE_ARITHMETIC_BIT},
        {SpvCapabilityGroupNonUniformBallot, VK_SUBGROUP_FEATURE_BALLOT_BIT},
        {SpvCapabilityGroupNonUniformShuffle, VK_SUBGROUP_FEATURE_SHUFFLE_BIT},
        {SpvCapabilityGroupNonUniformShuffleRelative, VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT},
        {SpvCapabilityGroupNonUniformClustered, VK_SUBGROUP_FEATURE_CLUSTERED_BIT},
        {SpvCapabilityGroupNonUniformQuad, VK_SUBGROUP_FEATURE_QUAD_BIT},
    };
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++) {
        if (!k2s_module_info_has_capability(info, ops[i].cap))
            continue;
        if (!(h->subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
            !(h->subgroup.supportedOperations & ops[i].bit)) {
            k2s_error("the module uses sub-group operations (OpCapability %u) that device '%s' "
                      "does not support in compute shaders", ops[i].cap, h->props.deviceName);
            return false;
        }
    }
    return true;
}

static VkBool32 float_control_prop(const VkPhysicalDeviceVulkan12Properties *p, uint32_t mode,
                                   uint32_t width)
{
    int w = width == 16 ? 0 : width == 32 ? 1 : width == 64 ? 2 : -1;
    if (w < 0)
        return VK_FALSE;
    const VkBool32 table[5][3] = {
        {p->shaderDenormPreserveFloat16, p->shaderDenormPreserveFloat32, p->shaderDenormPreserveFloat64},
        {p->shaderDenormFlushToZeroFloat16, p->shaderDenormFlushToZeroFloat32, p->shaderDenormFlushToZeroFloat64},
        {p->shaderSignedZeroInfNanPreserveFloat16, p->shaderSignedZeroInfNanPreserveFloat32,
         p->shaderSignedZeroInfNanPreserveFloat64},
        {p->shaderRoundingModeRTEFloat16, p->shaderRoundingModeRTEFloat32, p->shaderRoundingModeRTEFloat64},
        {p->shaderRoundingModeRTZFloat16, p->shaderRoundingModeRTZFloat32, p->shaderRoundingModeRTZFloat64},
    };
    return table[mode - SpvExecutionModeDenormPreserve][w];
}

static bool check_float_controls(const struct vk_host *h, const k2s_module_info *info,
                                 const struct vk_options *opt)
{
    if (info->n_float_modes == 0)
        return true;
    VkPhysicalDeviceVulkan12Properties p12 = {
        .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES};
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = &p12};
    bool have = h->api_version >= VK_API_VERSION_1_2;
    if (have)
        vkGetPhysicalDeviceProperties2(h->phys, &p2);
    static const char *const names[] = {"DenormPreserve", "DenormFlushToZero",
                                        "SignedZeroInfNanPreserve", "RoundingModeRTE",
                                        "RoundingModeRTZ"};
    for (size_t i = 0; i < info->n_float_modes; i++) {
        const k2s_module_float_mode *fm = &info->float_modes[i];
        if (have && float_control_prop(&p12, fm->mode, fm->width))
            continue;
        const char *name = names[fm->mode - SpvExecutionModeDenormPreserve];
        if (opt->ignore_float_controls) {
            k2s_warn("device '%s' does not support execution mode %s for %u-bit floats; "
                     "running anyway", h->props.deviceName, name, fm->width);
            continue;
        }
        k2s_error("the module uses execution mode %s for %u-bit floats, which device '%s' does "
                  "not support (--ignore-float-controls runs it anyway)", name, fm->width,
                  h->props.deviceName);
        return false;
    }
    return true;
}

static bool enable_features(struct vk_host *h, const k2s_module_info *info, bool needs_bda,
                            struct feature_chain *have, struct feature_chain *want, bool no_robust)
{
    for (size_t i = 0; i < info->n_capabilities; i++)
        if (!check_cap(info->capabilities[i]) || !enable_need(h, info->capabilities[i], have, want))
            return false;
    bool local_size_id = false;
    for (size_t i = 0; i < info->n_entries; i++)
        local_size_id = local_size_id || info->entries[i].local_size_is_id;
    if (local_size_id && !enable_need(h, NEED_MAINTENANCE4, have, want))
        return false;
    if (info->workgroup_initializer && !enable_need(h, NEED_ZERO_INIT_WORKGROUP, have, want))
        return false;
    for (uint32_t bit = 0; bit < 12; bit++)
        if ((info->float_atomics >> bit & 1) &&
            !enable_need(h, NEED_FLOAT_ATOMIC + bit, have, want))
            return false;
    if (needs_bda && !enable_need(h, NEED_BUFFER_DEVICE_ADDRESS, have, want))
        return false;
    h->buffer_device_address = have->present[FS_12] && want->v12.bufferDeviceAddress;
    if (!enable_need(h, NEED_SCALAR_LAYOUT, have, want))
        return false;
    h->scalar_block_layout = have->present[FS_12] && want->v12.scalarBlockLayout;
    return no_robust || enable_need(h, NEED_ROBUST_ACCESS, have, want);
}

/* ---- device ------------------------------------------------------------------------------------ */

static void read_properties(struct vk_host *h)
{
    vkGetPhysicalDeviceProperties(h->phys, &h->props);
    vkGetPhysicalDeviceMemoryProperties(h->phys, &h->memory);
    h->subgroup.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES;
    VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                      .pNext = &h->subgroup};
    vkGetPhysicalDeviceProperties2(h->phys, &p2);
    uint32_t n = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(h->phys, &n, NULL);
    VkQueueFamilyProperties *fams = calloc(n ? n : 1, sizeof *fams);
    if (fams) {
        vkGetPhysicalDeviceQueueFamilyProperties(h->phys, &n, fams);
        h->timestamp_bits = h->queue_family < n ? fams[h->queue_family].timestampValidBits : 0;
        free(fams);
    }
}

static bool choose_physical(struct vk_host *h, const struct vk_options *opt)
{
    VkPhysicalDevice *devs;
    uint32_t n, index;
    if (!enumerate(h->instance, &devs, &n))
        return false;
    bool ok = pick_device(devs, n, opt->device, &index);
    if (ok) {
        h->phys = devs[index];
        if (!compute_family(h->phys, &h->queue_family)) {
            k2s_error("device %u has no compute queue", index);
            ok = false;
        }
    }
    free(devs);
    if (!ok)
        return false;
    read_properties(h);
    uint32_t dev_api = h->props.apiVersion;
    if (VK_API_VERSION_MINOR(dev_api) < VK_API_VERSION_MINOR(h->api_version))
        h->api_version = VK_MAKE_API_VERSION(0, 1, VK_API_VERSION_MINOR(dev_api), 0);
    if (h->api_version < VK_API_VERSION_1_1) {
        k2s_error("device '%s' supports only Vulkan 1.0; k2s-run needs 1.1 or later",
                  h->props.deviceName);
        return false;
    }
    if (opt->verbose)
        fprintf(stderr, "%s: using device %u: %s (%s), Vulkan %u.%u\n", k2s_prog(), index,
                h->props.deviceName, type_name(h->props.deviceType),
                VK_API_VERSION_MAJOR(h->api_version), VK_API_VERSION_MINOR(h->api_version));
    return true;
}

static bool create_device(struct vk_host *h, struct feature_chain *want, struct ext_list *exts)
{
    float priority = 1.0f;
    VkDeviceQueueCreateInfo queue = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO,
        .queueFamilyIndex = h->queue_family,
        .queueCount = 1,
        .pQueuePriorities = &priority,
    };
    VkDeviceCreateInfo info = {
        .sType = VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO,
        .pNext = &want->f2,
        .queueCreateInfoCount = 1,
        .pQueueCreateInfos = &queue,
        .enabledExtensionCount = exts->n,
        .ppEnabledExtensionNames = exts->names,
    };
    VkResult r = vkCreateDevice(h->phys, &info, NULL, &h->device);
    if (r != VK_SUCCESS) {
        k2s_error("vkCreateDevice failed: %s", vk_result_name(r));
        return false;
    }
    vkGetDeviceQueue(h->device, h->queue_family, 0, &h->queue);
    return true;
}

bool vk_host_create(struct vk_host *h, const struct vk_options *opt, const k2s_module_info *info,
                    bool needs_bda)
{
    memset(h, 0, sizeof *h);
    h->verbose = opt->verbose;
    if (!create_instance(h, opt) || !choose_physical(h, opt))
        return false;
    struct ext_list exts = {.n = 0};
    if (!spirv_version_ok(h, info->version, &exts) || !select_extensions(h, info, &exts) ||
        !check_subgroups(h, info) || !check_float_controls(h, info, opt))
        return false;
    bool atomic_float = false, atomic_float2 = false;
    for (uint32_t i = 0; i < exts.n; i++) {
        atomic_float = atomic_float || strcmp(exts.names[i], "VK_EXT_shader_atomic_float") == 0;
        atomic_float2 = atomic_float2 || strcmp(exts.names[i], "VK_EXT_shader_atomic_float2") == 0;
    }
    /* VK_EXT_shader_atomic_float2 requires VK_EXT_shader_atomic_float. */
    if (atomic_float2 && !atomic_float && device_has_ext(h->phys, "VK_EXT_shader_atomic_float")) {
        ext_add(&exts, "VK_EXT_shader_atomic_float");
        atomic_float = true;
    }
    struct feature_chain have, want;
    chain_init(&have, h->api_version, atomic_float, atomic_float2);
    chain_init(&want, h->api_version, atomic_float, atomic_float2);
    vkGetPhysicalDeviceFeatures2(h->phys, &have.f2);
    if (!enable_features(h, info, needs_bda, &have, &want, opt->no_robust_access))
        return false;
    if (want.present[FS_13] && want.v13.computeFullSubgroups) {
        VkPhysicalDeviceVulkan13Properties p13 = {
            .sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES};
        VkPhysicalDeviceProperties2 p2 = {.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2,
                                          .pNext = &p13};
        vkGetPhysicalDeviceProperties2(h->phys, &p2);
        h->full_subgroups = p13.maxSubgroupSize > 0;
        h->max_subgroup_size = p13.maxSubgroupSize;
    }
    if (opt->verbose && !h->keep_nonsemantic)
        fprintf(stderr, "%s: the driver lacks VK_KHR_shader_non_semantic_info; stripping "
                        "reflection instructions before pipeline creation\n", k2s_prog());
    return create_device(h, &want, &exts);
}

void vk_host_destroy(struct vk_host *h)
{
    if (h->device)
        vkDestroyDevice(h->device, NULL);
    if (h->messenger) {
        PFN_vkDestroyDebugUtilsMessengerEXT destroy = (PFN_vkDestroyDebugUtilsMessengerEXT)
            vkGetInstanceProcAddr(h->instance, "vkDestroyDebugUtilsMessengerEXT");
        if (destroy)
            destroy(h->instance, h->messenger, NULL);
    }
    if (h->instance)
        vkDestroyInstance(h->instance, NULL);
    memset(h, 0, sizeof *h);
}
