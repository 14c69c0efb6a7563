{%- extends 'gradebook_base.tpl' -%}

{%- block head -%}
<script>
var assignment_id = "{{ assignment_id }}";
var notebook_id = "{{ notebook_id }}";
</script>

<script src="{{ base_url }}{{ GUIONES }}/gradebook_notebook_submissions.js"></script>
{%- endblock head -%}

{%- block breadcrumbs -%}
<ol class="breadcrumb">
  <li><a href="{{ base_url }}/formgrader/gradebook">Corregir a mano</a></li>
  <li><a href="{{ base_url }}/formgrader/gradebook/{{ assignment_id }}">{{ assignment_id }}</a></li>
  <li class="active">{{ notebook_id }}</li>
</ol>
{%- endblock -%}

{%- block messages -%}
<button id="toggle_names" onclick="toggleAllNames()">Mostrar todos los nombres</button>
{%- endblock -%}

{%- block table_header -%}
<tr>
  <th></th>
  <th>Entrega</th>
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
<tr><td colspan="9">Cargando…</td></tr>
{%- endblock -%}
