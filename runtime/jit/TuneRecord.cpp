#include "runtime/jit/TuneRecord.h"

#include "runtime/Error.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace tile::jit {

using ojson = nlohmann::ordered_json;

const char *tuneRowStatusName(TuneRow::Status status) {
  switch (status) {
  case TuneRow::Status::Timed:
    return "timed";
  case TuneRow::Status::Discarded:
    return "discarded";
  case TuneRow::Status::Failed:
    return "failed";
  }
  return "?";
}

namespace {

[[noreturn]] void invalid(const std::string &origin, const std::string &field, const std::string &problem) {
  throw rt::Error(rt::Error::Kind::InvalidMetadata, origin + ": " + field + ": " + problem);
}

ojson recordJson(const TuneRecord &r) {
  ojson rows = ojson::array();
  for (const TuneRow &row : r.rows)
    rows.push_back({{"config", row.config},
                    {"label", row.label},
                    {"status", tuneRowStatusName(row.status)},
                    {"ms", row.ms},
                    {"launches", row.launches},
                    {"reason", row.reason}});
  return {{"kernel", r.kernel}, {"summary", r.summary}, {"key", r.keyText}, {"winner", r.winner},
          {"config", r.config}, {"label", r.label},     {"rows", rows}};
}

const ojson &member(const ojson &object, const char *name, const std::string &origin, const std::string &where) {
  auto it = object.find(name);
  if (it == object.end())
    invalid(origin, where + name, "missing");
  return *it;
}

std::string stringOf(const ojson &object, const char *name, const std::string &origin, const std::string &where) {
  const ojson &v = member(object, name, origin, where);
  if (!v.is_string())
    invalid(origin, where + name, "expected a string");
  return v.get<std::string>();
}

unsigned indexOf(const ojson &object, const char *name, const std::string &origin, const std::string &where) {
  const ojson &v = member(object, name, origin, where);
  if (!v.is_number_unsigned() || v.get<unsigned long long>() > 1000000)
    invalid(origin, where + name, "expected an integer from 0 to 1000000");
  return v.get<unsigned>();
}

TuneRecord recordFrom(const ojson &j, const std::string &origin, const std::string &where) {
  if (!j.is_object())
    invalid(origin, where.empty() ? "(top level)" : where.substr(0, where.size() - 1), "expected an object");
  TuneRecord r;
  r.kernel = stringOf(j, "kernel", origin, where);
  r.summary = stringOf(j, "summary", origin, where);
  r.keyText = stringOf(j, "key", origin, where);
  if (r.keyText.compare(0, 7 + r.kernel.size() + 1, "kernel=" + r.kernel + "\n") != 0)
    invalid(origin, where + "key", "does not start with the line kernel=" + r.kernel);
  r.winner = indexOf(j, "winner", origin, where);
  r.config = indexOf(j, "config", origin, where);
  r.label = stringOf(j, "label", origin, where);
  const ojson &rows = member(j, "rows", origin, where);
  if (!rows.is_array())
    invalid(origin, where + "rows", "expected a list");
  for (size_t i = 0; i < rows.size(); ++i) {
    const std::string at = where + "rows[" + std::to_string(i) + "].";
    if (!rows[i].is_object())
      invalid(origin, at.substr(0, at.size() - 1), "expected an object");
    TuneRow row;
    row.config = indexOf(rows[i], "config", origin, at);
    row.label = stringOf(rows[i], "label", origin, at);
    std::string status = stringOf(rows[i], "status", origin, at);
    if (status == "timed")
      row.status = TuneRow::Status::Timed;
    else if (status == "discarded")
      row.status = TuneRow::Status::Discarded;
    else if (status == "failed")
      row.status = TuneRow::Status::Failed;
    else
      invalid(origin, at + "status", "'" + status + "' is not timed, discarded or failed");
    const ojson &ms = member(rows[i], "ms", origin, at);
    // Finite: an infinite time would write back as null (the reader refuses 1e999 already).
    if (!ms.is_number() || !(ms.get<double>() >= 0) || !std::isfinite(ms.get<double>()))
      invalid(origin, at + "ms", "expected a finite number >= 0");
    row.ms = ms.get<double>();
    row.launches = indexOf(rows[i], "launches", origin, at);
    row.reason = stringOf(rows[i], "reason", origin, at);
    r.rows.push_back(std::move(row));
  }
  return r;
}

ojson parse(const std::string &text, const std::string &origin) {
  try {
    return ojson::parse(text);
  } catch (const ojson::exception &e) {
    throw rt::Error(rt::Error::Kind::InvalidMetadata, origin + ": not valid JSON (" + std::string(e.what()) + ")");
  }
}

void expectFormat(const ojson &j, const char *format, const std::string &origin) {
  if (!j.is_object())
    invalid(origin, "(top level)", "expected an object");
  std::string got = stringOf(j, "format", origin, "");
  if (got != format)
    invalid(origin, "format", "'" + got + "' is not supported (this build reads " + format + ")");
}

} // namespace

std::string toJson(const TuneRecord &record) {
  ojson j = {{"format", kTuneRecordFormat}};
  j.update(recordJson(record));
  return j.dump(1) + "\n";
}

TuneRecord parseTuneRecord(const std::string &text, const std::string &origin) {
  ojson j = parse(text, origin);
  expectFormat(j, kTuneRecordFormat, origin);
  return recordFrom(j, origin, "");
}

std::string tableToJson(const std::vector<TuneRecord> &records) {
  ojson entries = ojson::array();
  for (const TuneRecord &r : records)
    entries.push_back(recordJson(r));
  ojson j = {{"format", kTuneTableFormat}, {"entries", entries}};
  return j.dump(1) + "\n";
}

std::vector<TuneRecord> parseTuneTable(const std::string &text, const std::string &origin) {
  ojson j = parse(text, origin);
  expectFormat(j, kTuneTableFormat, origin);
  const ojson &entries = member(j, "entries", origin, "");
  if (!entries.is_array())
    invalid(origin, "entries", "expected a list");
  std::vector<TuneRecord> records;
  for (size_t i = 0; i < entries.size(); ++i)
    records.push_back(recordFrom(entries[i], origin, "entries[" + std::to_string(i) + "]."));
  return records;
}

std::vector<std::pair<std::string, std::string>> tuneKeyFields(const std::string &text) {
  std::vector<std::pair<std::string, std::string>> fields;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = text.find('\n', at);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(at, end - at);
    at = end + 1;
    std::size_t eq = line.find('=');
    if (eq == std::string::npos || eq == 0)
      continue;
    // TuneKey::make escapes newlines and backslashes in values.
    std::string value;
    for (std::size_t i = eq + 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size()) {
        value += line[i + 1] == 'n' ? '\n' : line[i + 1];
        ++i;
      } else {
        value += line[i];
      }
    }
    fields.emplace_back(line.substr(0, eq), std::move(value));
  }
  return fields;
}

} // namespace tile::jit
