// torch.save's format before 1.6 (_legacy_save in torch/serialization.py): five pickles in a
// row (the magic number 0x1950a86a20f9469cfc6c, the protocol version 1001, sys_info, the
// object, the list of storage keys), then each storage in key order as a little-endian int64
// element count followed by its bytes.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "container/container_issues.h"
#include "pickle/pickle_machine.h"

namespace safetensors::container {

/// @brief The magic number's pickle as protocol 2 writes it: PROTO 2, LONG1 of 10 bytes, and
/// the number little-endian.
inline constexpr std::array<std::uint8_t, 14> kLegacyMagicPickle{0x80, 0x02, 0x8a, 0x0a, 0x6c, 0xfc, 0x9c,
                                                                 0x46, 0xf9, 0x20, 0x6a, 0xa8, 0x50, 0x19};

/// @brief torch's LEGACY protocol version.
inline constexpr std::int64_t kLegacyProtocolVersion = 1001;

/// @brief Whether the file starts as a legacy checkpoint does.
bool is_legacy_torch(std::span<const std::uint8_t> first_bytes);

/// @brief The five pickles.
struct LegacyPickles {
  bool ok = false;                            ///< all five read and the first two as expected
  std::vector<pickle::PickleResult> pickles;  ///< in file order (fewer when one failed)
  std::vector<std::uint64_t> starts;          ///< each pickle's first byte
  std::uint64_t storages_offset = 0;          ///< the first storage's count
  std::vector<ContainerFinding> findings;     ///< magic, protocol
};

/// @brief Runs the pickles from the start of `bytes` (which must hold all five).
LegacyPickles read_legacy_pickles(std::span<const std::uint8_t> bytes, const pickle::PickleLimits& limits = {});

/// @brief One storage in the tail.
struct LegacyStorage {
  bool ok = false;                ///< the count fits the file
  std::uint64_t data_offset = 0;  ///< first byte of the elements
  std::uint64_t numel = 0;        ///< elements
  std::uint64_t next = 0;         ///< where the next storage's count is
};

/// @brief Reads the count at `offset` (the 8 bytes in `count`) of a storage of `element_size`.
LegacyStorage read_legacy_storage(std::span<const std::uint8_t> count, std::uint64_t offset, std::uint64_t element_size,
                                  std::uint64_t file_size);

}  // namespace safetensors::container
