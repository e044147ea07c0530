#include "store/study_info.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <random>
#include <string_view>

namespace cineflow::store {
namespace {

// Characters, not bytes: DICOM's limits count characters, and names may be typed in any script.
std::size_t characters(std::string_view text) {
  return static_cast<std::size_t>(std::count_if(text.begin(), text.end(), [](char c) {
    return (static_cast<unsigned char>(c) & 0xC0U) != 0x80U;  // not a UTF-8 continuation byte
  }));
}

std::string tooLong(const char* field, std::size_t limit, std::size_t typed) {
  return std::string(field) + ": at most " + std::to_string(limit) + " characters (" +
         std::to_string(typed) + " typed)";
}

// A backslash separates DICOM values and control characters end them: neither belongs in one.
std::string badCharacter(const char* field, std::string_view text) {
  for (const char c : text) {
    const auto byte = static_cast<unsigned char>(c);
    if (c == '\\') {
      return std::string(field) + ": a backslash (\\) is not allowed";
    }
    if (byte < 0x20U || byte == 0x7FU) {
      return std::string(field) + ": a control character (a tab or a line break) is not allowed";
    }
  }
  return {};
}

std::string textProblem(const char* field, std::string_view text, std::size_t limit) {
  if (std::string bad = badCharacter(field, text); !bad.empty()) {
    return bad;
  }
  const std::size_t typed = characters(text);
  return typed > limit ? tooLong(field, limit, typed) : std::string();
}

// A Person Name: up to three component groups ("="), each at most 64 characters and five
// components ("Family^Given^Middle^Prefix^Suffix").
std::string personNameProblem(const char* field, std::string_view name) {
  if (std::string bad = badCharacter(field, name); !bad.empty()) {
    return bad;
  }
  std::size_t groups = 0;
  for (std::size_t start = 0; start <= name.size(); ++groups) {
    const std::size_t end = std::min(name.find('=', start), name.size());
    const std::string_view group = name.substr(start, end - start);
    if (characters(group) > 64) {
      return tooLong(field, 64, characters(group));
    }
    if (std::count(group.begin(), group.end(), '^') > 4) {
      return std::string(field) +
             ": at most five parts separated by ^ (Family^Given^Middle^Prefix^Suffix)";
    }
    start = end + 1;
  }
  return groups > 3 ? std::string(field) + ": at most three forms of the name separated by ="
                    : std::string();
}

bool digits(std::string_view text, std::size_t count) {
  return text.size() == count &&
         std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; });
}

int number(std::string_view text) {
  int value = 0;
  for (const char c : text) {
    value = value * 10 + (c - '0');
  }
  return value;
}

bool realDate(std::string_view date) {
  if (!digits(date, 8)) {
    return false;
  }
  const int year = number(date.substr(0, 4));
  const int month = number(date.substr(4, 2));
  const int day = number(date.substr(6, 2));
  if (year < 1 || month < 1 || month > 12 || day < 1) {
    return false;
  }
  const bool leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
  constexpr std::array<int, 12> kDays{31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  return day <= kDays[static_cast<std::size_t>(month - 1)] + (month == 2 && leap ? 1 : 0);
}

bool validUid(std::string_view uid) {
  return uid.size() <= 64 && !uid.empty() && uid.front() != '.' && uid.back() != '.' &&
         std::all_of(uid.begin(), uid.end(),
                     [](char c) { return c == '.' || (c >= '0' && c <= '9'); });
}

}  // namespace

bool StudyInfo::hasEntries() const {
  return !patientName.empty() || !patientId.empty() || !birthDate.empty() || !sex.empty() ||
         !accessionNumber.empty() || !studyDescription.empty() || !referringPhysician.empty() ||
         !operatorName.empty();
}

std::string studyProblem(const StudyInfo& study, const std::string& today) {
  const std::string problems[] = {
      personNameProblem("Patient name", study.patientName),
      textProblem("Patient ID", study.patientId, 64),
      study.birthDate.empty() || realDate(study.birthDate)
          ? std::string()
          : "Birth date: not a real date (" + study.birthDate + ")",
      !study.birthDate.empty() && !today.empty() && study.birthDate > today
          ? std::string("Birth date: in the future")
          : std::string(),
      study.sex.empty() || study.sex == "M" || study.sex == "F" || study.sex == "O"
          ? std::string()
          : "Sex: M, F, O or none (found \"" + study.sex + "\")",
      textProblem("Accession number", study.accessionNumber, 16),
      textProblem("Study description", study.studyDescription, 64),
      personNameProblem("Referring physician", study.referringPhysician),
      personNameProblem("Operator", study.operatorName),
      study.studyInstanceUid.empty() || validUid(study.studyInstanceUid)
          ? std::string()
          : "Study instance UID: digits and dots, at most 64 characters",
      study.studyDate.empty() || realDate(study.studyDate) ? std::string()
                                                           : std::string("Study date: not a date"),
      study.studyTime.empty() || digits(study.studyTime, 6) ? std::string()
                                                            : std::string("Study time: not HHMMSS"),
  };
  for (const std::string& problem : problems) {
    if (!problem.empty()) {
      return problem;
    }
  }
  return {};
}

std::string newStudyInstanceUid() {
  std::random_device random;
  // 128 bits as four 32-bit limbs, most significant first, written in decimal by long division.
  std::array<std::uint32_t, 4> limbs{};
  for (std::uint32_t& limb : limbs) {
    limb = random();
  }
  std::string decimal;
  while (std::any_of(limbs.begin(), limbs.end(), [](std::uint32_t limb) { return limb != 0; })) {
    std::uint64_t remainder = 0;
    for (std::uint32_t& limb : limbs) {
      const std::uint64_t value = (remainder << 32U) | limb;
      limb = static_cast<std::uint32_t>(value / 10U);
      remainder = value % 10U;
    }
    decimal.insert(decimal.begin(), static_cast<char>('0' + remainder));
  }
  return "2.25." + (decimal.empty() ? std::string("0") : decimal);
}

}  // namespace cineflow::store
