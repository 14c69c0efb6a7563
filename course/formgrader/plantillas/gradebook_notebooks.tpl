{%- extends 'gradebook_base.tpl' -%}

{%- block head -%}
<script>
var assignment_id = "{{ assignment_id }}";
</script>

<script src="{{ base_url }}{{ GUIONES }}/gradebook_notebooks.js"></script>
{%- endblock head -%}

{%- block breadcrumbs -%}
<ol class="breadcrumb">
  <li><a href="{{ base_url }}/formgrader/gradebook">Corregir a mano</a></li>
  <li class="active">{{ assignment_id }}</li>
</ol>
{%- endblock -%}

{%- block table_header -%}
<tr>
  <th>Cuaderno</th>
  <th class="text-center">Nota media</th>
  <th class="text-center">Media del código (sin descuento)</th>
  <th class="text-center">Media de las respuestas escritas (sin descuento)</th>
  <th class="text-center">Media de las tareas a mano (sin descuento)</th>
  <th class="text-center">¿Falta corregir a mano?</th>
</tr>
{%- endblock -%}

{%- block table_body -%}
<tr><td colspan="6">Cargando…</td></tr>
{%- endblock -%}
