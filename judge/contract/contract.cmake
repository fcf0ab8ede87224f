# The judge's typed contract table, judge/contract_data.h, made from
# course.json at configure time (CMake's string(JSON)): the JSON file is the
# one place the course's contract is written, read by the judge through this
# header and by the scripts with jq. A change to course.json configures again.
set(contract_file ${CMAKE_CURRENT_LIST_DIR}/course.json)
set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${contract_file})
file(READ ${contract_file} contract)

# contract_list(OUT QUOTE KEY...): the array at KEY..., its items joined by
# ", ", each in QUOTE (a string's quotes, or nothing); OUT_count its length.
function(contract_list out quote)
  string(JSON count LENGTH "${contract}" ${ARGN})
  set(items "")
  math(EXPR last "${count} - 1")
  foreach(i RANGE ${last})
    string(JSON item GET "${contract}" ${ARGN} ${i})
    list(APPEND items "${quote}${item}${quote}")
  endforeach()
  list(JOIN items ", " joined)
  set(${out} "${joined}" PARENT_SCOPE)
  set(${out}_count ${count} PARENT_SCOPE)
endfunction()

# contract_enum(VAR WHAT TYPE NAME ENUMERATOR...): VAR's JSON name as the C++
# enumerator TYPE::ENUMERATOR; a name not listed stops the configure.
function(contract_enum var what type)
  set(pairs ${ARGN})
  while(pairs)
    list(POP_FRONT pairs name enumerator)
    if(${var} STREQUAL name)
      set(${var} ${type}::${enumerator} PARENT_SCOPE)
      return()
    endif()
  endwhile()
  message(FATAL_ERROR "${contract_file}: ${what} '${${var}}' is not one of: ${ARGN}")
endfunction()

string(JSON contract_runs GET "${contract}" runs)
string(JSON contract_max_runs GET "${contract}" max_runs)
string(JSON contract_size GET "${contract}" size)
string(JSON contract_saxpy_count GET "${contract}" saxpy_count)
contract_list(contract_counts "" counts)
contract_list(contract_scenes "\"" scenes)

# The rules, then the parts naming them.
string(JSON rule_count LENGTH "${contract}" rules)
math(EXPR last "${rule_count} - 1")
set(rules "")
foreach(i RANGE ${last})
  string(JSON name MEMBER "${contract}" rules ${i})
  foreach(field points formula full_at floor_beyond floor_points steady_within)
    string(JSON ${field} GET "${contract}" rules ${name} ${field})
  endforeach()
  contract_enum(formula "rule ${name}: formula" Formula proportional kProportional stepped kStepped)
  list(APPEND rules
       "ScoreRule{\"${name}\", ${points}, ${formula}, ${full_at}, ${floor_beyond}, ${floor_points}, ${steady_within}}")
endforeach()
list(JOIN rules ",\n    " contract_rules)
set(contract_rule_count ${rule_count})

string(JSON part_count LENGTH "${contract}" parts)
math(EXPR last "${part_count} - 1")
set(parts "")
foreach(i RANGE ${last})
  string(JSON part GET "${contract}" parts ${i} part)
  string(JSON items GET "${contract}" parts ${i} items)
  string(JSON rule GET "${contract}" parts ${i} rule)
  contract_enum(items "part ${part}: items" Items counts kCounts scenes kScenes)
  list(APPEND parts "GradedPart{\"${part}\", ${items}, \"${rule}\"}")
endforeach()
list(JOIN parts ",\n    " contract_parts)
set(contract_part_count ${part_count})

configure_file(${CMAKE_CURRENT_LIST_DIR}/contract_data.h.in
               ${CMAKE_BINARY_DIR}/generated/judge/contract_data.h @ONLY)
