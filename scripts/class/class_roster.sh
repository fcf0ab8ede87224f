# shellcheck shell=bash
# grade_class.sh's gradebooks for a course platform: where the submissions
# came from import_submissions.sh, its roster (names, emails, submission
# times, lateness) joined to the grades, a row per student (each member of
# a group), with empty columns for what the staff grade by hand; and for a
# Canvas import, the file Canvas's gradebook import takes. Sourced by
# scripts/class/grade_class.sh, after class_lib.sh (which sources
# grade_lib.sh: GRADE_CSV_AWK).

# The roster's header, as import_submissions.sh writes it.
CLASS_ROSTER_HEADER=$'id\tsubmission\tname\temail\tsubmitted_at\tlate\tlate_by_s\tplatform'

# take_roster SUBMISSIONS OUT: SUBMISSIONS/roster.tsv kept as
# OUT/roster.tsv for the gradebooks (none: none kept). Fails, saying why,
# for a roster of another form.
take_roster() {
  local roster=$1/roster.tsv
  if [ ! -f "$roster" ]; then
    rm -f -- "$2/roster.tsv"
    return 0
  fi
  if [ "$(head -n 1 -- "$roster")" != "$CLASS_ROSTER_HEADER" ]; then
    echo "grade_class.sh: $roster is not a roster of import_submissions.sh (its header differs)" >&2
    return 1
  fi
  cp -- "$roster" "$2/roster.tsv"
}

# write_roster_books OUT COLUMN: with OUT/roster.tsv, OUT/gradebook_roster.csv
# (a row per roster entry: its submission's grades, or "no submission" and
# 0 points, or, with no submission id, that the import left it out and no
# points at all)
# and, for Canvas's entries, OUT/canvas.csv: the columns Canvas's gradebook
# import reads (Student, ID, SIS User ID, SIS Login ID, Section) and COLUMN,
# the assignment, holding the total.
write_roster_books() {
  local out=$1 column=$2
  [ -f "$out/roster.tsv" ] || { rm -f -- "$out/gradebook_roster.csv" "$out/canvas.csv"; return 0; }
  # The roster's text is the students' (a name, an email, an id): each
  # cell through grade_lib.sh's GRADE_CSV_AWK (csv_quoted: quoted, and no
  # formula a spreadsheet would run).
  awk -F, -v roster_book="$out/gradebook_roster.csv.tmp" -v canvas_book="$out/canvas.csv.tmp" -v column="$column" "$GRADE_CSV_AWK"'
    # The gradebook (id, the parts, total, max_total, status, gpu): each
    # student id to its parts, total and maximum, and its status.
    FNR == NR && FNR == 1 { parts = NF - 5; header = ""; for (i = 2; i <= parts + 1; i++) header = header "," $i; next }
    FNR == NR {
      line = ""
      for (i = 2; i <= parts + 3; i++) line = line "," $i
      grades[$1] = line; status[$1] = $(parts + 4); max = $(parts + 3)
      next
    }
    FNR == 1 {
      print "student_id,name,email,graded_as,submitted_at,late,late_by_s" header ",total,max_total,saxpy_writeup,writeup,status" >roster_book
      next
    }
    {
      id = $1; sub_id = $2
      if (sub_id != "" && sub_id in grades) {
        line = grades[sub_id]; st = status[sub_id]
      } else if (sub_id == "") {
        # One the import left out (its id claimed twice): no grade yet,
        # so that an upload before the staff sort it out gives none.
        line = ""; for (i = 1; i <= parts + 1; i++) line = line ","; line = line "," (max + 0)
        st = "left out at import: its id claimed by two submissions"
      } else {
        # None in the export: nothing handed in, nothing earned.
        line = ""; for (i = 1; i <= parts + 1; i++) line = line ",0"; line = line "," (max + 0)
        st = "no submission"
      }
      printf "%s,%s,%s,%s,%s,%s,%s%s,,,%s\n", csv_quoted(id), csv_quoted($3), csv_quoted($4), csv_quoted(sub_id), csv_quoted($5),
        csv_cell($6), csv_cell($7), line, st >roster_book
      if ($8 == "canvas") {
        if (!canvas++) print "Student,ID,SIS User ID,SIS Login ID,Section," csv_quoted(column) >canvas_book
        split(line, g, ",")
        printf "%s,%s,,,,%s\n", csv_quoted($3), csv_cell(id), g[parts + 2] >canvas_book
      }
    }
    END { if (!canvas) printf "" >canvas_book }' "$out/gradebook.csv" FS='\t' "$out/roster.tsv" || return 1
  mv -f -- "$out/gradebook_roster.csv.tmp" "$out/gradebook_roster.csv"
  if [ -s "$out/canvas.csv.tmp" ]; then
    mv -f -- "$out/canvas.csv.tmp" "$out/canvas.csv"
  else
    rm -f -- "$out/canvas.csv.tmp" "$out/canvas.csv"
  fi
}
