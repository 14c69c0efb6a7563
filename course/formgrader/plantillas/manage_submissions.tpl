{%- extends 'base.tpl' -%}
{%- set seccion = "tareas" -%}

{%- block head -%}
<script>
var assignment_id = "{{ assignment_id }}";
</script>

<script src="{{ base_url }}{{ GUIONES }}/manage_submissions.js"></script>
{%- endblock head -%}

{%- block title -%}
Entregas
{%- endblock -%}

{%- block breadcrumbs -%}
<ol class="breadcrumb">
  <li><a href="{{ base_url }}/formgrader/manage_assignments">Tareas</a></li>
  <li class="active">{{ assignment_id }}</li>
</ol>
{%- endblock -%}

{%- block messages -%}
<div class="panel-group" id="accordion" role="tablist" aria-multiselectable="true">
  <div class="panel panel-default">
    <div class="panel-heading" role="tab" id="headingOne">
      <h4 class="panel-title">
        <a class="collapsed" role="button" data-toggle="collapse" data-parent="#accordion" href="#collapseOne" aria-expanded="false" aria-controls="collapseOne">
          Cómo se corrige (pulsa para verlo)
        </a>
      </h4>
    </div>
    <div id="collapseOne" class="panel-collapse collapse" role="tabpanel" aria-labelledby="headingOne">
      <div class="panel-body">
        <p>El rayo de cada fila corrige esa entrega sola. Para toda la clase, desde una
          <a target="_blank" href="{{ base_url }}/terminals/1">terminal</a>:</p>
        <pre>
cd "{{ course_dir }}"
make grade TAREA="{{ assignment_id }}"</pre>
        <p><code>make grade</code> corrige en paralelo, escribe la retroalimentación, <code>exports/notas.csv</code>
          y el informe de la clase; <code>nbgrader autograde "{{ assignment_id }}"</code> también vale, de una en una.</p>
      </div>
    </div>
  </div>
</div>
{%- endblock -%}

{%- block table_header -%}
<tr>
  <th>Estudiante</th>
  <th class="text-center">Identificador</th>
  <th class="text-center">Entregada</th>
  <th class="text-center">Estado</th>
  <th class="text-center">Nota</th>
  <th class="text-center no-sort">Corregir</th>
  <th class="text-center no-sort">Generar la retroalimentación</th>
  <th class="text-center no-sort">Publicar la retroalimentación</th>
</tr>
{%- endblock -%}

{%- block table_body -%}
<tr>
  <td>Cargando…</td>
  <td></td>
  <td></td>
  <td></td>
  <td></td>
  <td></td>
  <td></td>
  <td></td>
</tr>
{%- endblock -%}
