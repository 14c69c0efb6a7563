{%- extends 'manage_students_base.tpl' -%}

{%- block head -%}
<script>
var student_id = "{{ student_id }}";
var assignment_id = "{{ assignment_id }}";
</script>

<script src="{{ base_url }}{{ GUIONES }}/manage_students_notebook_submissions.js"></script>
{%- endblock head -%}

{%- block breadcrumbs -%}
<ol class="breadcrumb">
  <li><a href="{{ base_url }}/formgrader/manage_students">Estudiantes</a></li>
  <li><a href="{{ base_url }}/formgrader/manage_students/{{ student_id }}">{{ student_id }}</a></li>
  <li class="active">{{ assignment_id }}</li>
</ol>
{%- endblock -%}

{%- block table_header -%}
<tr>
  <th>Cuaderno</th>
  <th class="text-center">Nota</th>
  <th class="text-center">Código (sin descuento)</th>
  <th class="text-center">Respuestas escritas (sin descuento)</th>
  <th class="text-center">Tareas a mano (sin descuento)</th>
  <th class="text-center">¿Falta corregir a mano?</th>
  <th class="text-center">¿Falla alguna prueba?</th>
  <th class="text-center">¿Marcada?</th>
</tr>
{%- endblock -%}

{%- block table_body -%}
<tr><td colspan="8">Cargando…</td></tr>
{%- endblock -%}
