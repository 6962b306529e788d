// The pickle machine's references to things outside the pickle: persistent ids (PERSID,
// BINPERSID: torch's storages), copyreg extension codes (EXT1/2/4) and protocol 5's out-of-band
// buffers. Each becomes an inert value; the last two are also findings.
#include "pickle/opcodes.h"
#include "pickle/pickle_machine_state.h"

namespace safetensors::pickle::detail {

bool Machine::reference_op(std::uint8_t op) {
  switch (static_cast<Op>(op)) {
    case Op::PersId: {
      auto line = take_line();
      if (!line || !charge(line->size())) return false;
      auto text = make(Kind::Str);
      if (!text) return false;
      result_.values[*text].text.assign(*line);
      auto id = make(Kind::PersId);
      if (!id) return false;
      result_.values[*id].items = {*text};
      return push(*id);
    }
    case Op::BinPersId: {
      auto pid = pop();
      if (!pid) return false;
      auto id = make(Kind::PersId);
      if (!id) return false;
      result_.values[*id].items = {*pid};
      return push(*id);
    }
    case Op::Ext1:
    case Op::Ext2:
    case Op::Ext4: {
      auto code = take_uint(op == static_cast<std::uint8_t>(Op::Ext1)   ? 1
                            : op == static_cast<std::uint8_t>(Op::Ext2) ? 2
                                                                        : 4);
      if (!code) return false;
      note(PickleIssue::ExtensionCode);
      auto id = make(Kind::Extension);
      if (!id) return false;
      result_.values[*id].integer = static_cast<std::int64_t>(*code);
      return push(*id);
    }
    case Op::NextBuffer: {
      note(PickleIssue::OutOfBandBuffer);
      auto id = make(Kind::Buffer);
      return id && push(*id);
    }
    case Op::ReadOnlyBuffer:
      if (stack_.empty()) return fail(PickleIssue::StackUnderflow);
      return true;
    default: return fail(PickleIssue::UnknownOpcode);
  }
}

}  // namespace safetensors::pickle::detail
